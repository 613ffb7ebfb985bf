/**
 * Gateway benchmark: the same MCP tool call made
 *   (a) directly, MCP client → weather server, and
 *   (b) through the platform path, JSON-RPC → gateway → gRPC → agents → MCP → weather server,
 * in one run on one machine, so the difference is the cost of the two added hops.
 * A third path, gRPC InvokeTool straight to the agents (→ MCP → server), splits that
 * cost into the gateway hop and the agents hop. Also measures batch throughput
 * through the gateway.
 *
 *   npm run build && node dist/bench/gateway/gateway-bench.js [iterations]
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PROTO_FILE_PATHS, PROTO_LOADER_OPTIONS, toStruct, toTimestamp } from '@s2sp/contracts';
import { startAgents } from '../../apps/agents/src/start-agents';
import { DEFAULT_AGENTS_CONFIG } from '../../apps/agents/src/agents.config';
import { startGateway } from '../../apps/gateway/src/gateway';
import { defaultGatewayConfig } from '../../apps/gateway/src/gateway.config';
import { startWeatherServer } from '../../apps/weather-server/src/weather-server';
import { startTestMcpServer } from '../../test/support/test-mcp-server';
import { bearerFor } from '../../test/support/tokens';
import { summarize, timeSequential, type LatencySummary } from './percentiles';

const iterations = Number(process.argv[2] ?? process.env.BENCH_ITERATIONS ?? 500);
const warmup = Math.min(100, iterations);
const batchSize = 50;
const batches = Math.max(4, Math.round(iterations / batchSize));

interface Workload {
  label: string;
  server: 'testkit' | 'weather';
  tool: string;
  arguments: Record<string, unknown>;
}

// (1) The small call of the chapter's sub-millisecond claim: a tool whose answer
//     is a few bytes, so the difference is the hops themselves.
// (2) A realistic S2SP call: DC's alerts, abstract "event", body inline (sync, so
//     nothing is written to a database); through the agents the resource server
//     also counts the body's tokens for the usage report, which costs CPU.
const WORKLOADS: Workload[] = [
  { label: 'small call: echo', server: 'testkit', tool: 'echo', arguments: { text: 'hi' } },
  { label: 'S2SP call: get_alerts DC sync', server: 'weather', tool: 'get_alerts', arguments: { area: 'DC', abstract_domains: 'event', mode: 'sync' } },
];

async function main(): Promise<void> {
  const weather = await startWeatherServer({
    host: '127.0.0.1', port: 0, transport: 'http', dataDir: ':memory:', resourceTtlMs: 600_000, sweepIntervalMs: 0,
    auth: { audience: 'weather-server' },
  });
  const testkit = await startTestMcpServer();
  const agents = await startAgents(
    {
      ...DEFAULT_AGENTS_CONFIG, port: 0, dataDir: ':memory:', auth: { audience: 'agents' },
      mcpServers: [{ id: 'weather', url: `${weather.url}/mcp` }, { id: 'testkit', url: testkit.mcpUrl }],
    },
    { logger: false },
  );
  const base = defaultGatewayConfig();
  const gateway = await startGateway({
    ...base, port: 0, agentsUrl: agents.url, dataDir: ':memory:', logger: false,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const directClients = {
    weather: await connect(`${weather.url}/mcp`),
    testkit: await connect(testkit.mcpUrl),
  };
  const toolService = toolServiceClient(agents.url);
  try {
    for (const workload of WORKLOADS) await runWorkload(workload, directClients[workload.server], toolService, gateway.url);
  } finally {
    toolService.close();
    await directClients.weather.close();
    await directClients.testkit.close();
    await gateway.close();
    await agents.close();
    await testkit.close();
    await weather.close();
  }
}

/** Every path carries a dev-key bearer token, as in production: each hop verifies, audits and narrows. */
async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-direct', version: '1' });
  const authorization = await bearerFor({ audience: 'weather-server' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } }));
  return client;
}

/** A gRPC client of the agents' ToolService, as the gateway makes it (same proto options). */
function toolServiceClient(address: string): grpc.Client {
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync([...PROTO_FILE_PATHS], { ...PROTO_LOADER_OPTIONS })) as any;
  return new loaded.s2sp.v1.ToolService(address, grpc.credentials.createInsecure());
}

async function runWorkload(workload: Workload, direct: Client, toolService: grpc.Client, gatewayUrl: string): Promise<void> {
  const callDirect = async () => {
    const result = await direct.callTool({ name: workload.tool, arguments: workload.arguments });
    if (result.isError) throw new Error('direct call failed');
  };
  const agentsMetadata = new grpc.Metadata();
  agentsMetadata.set('authorization', await bearerFor({ audience: 'agents' }));
  const gatewayAuthorization = await bearerFor({ audience: 'gateway' });
  // What the gateway sends for tools.call (no usage counting asked for).
  const callAgents = () =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      const request = {
        invocation_id: '', tool_name: workload.tool, server: workload.server,
        input_params: toStruct(workload.arguments as any), deadline: toTimestamp(deadline),
      };
      (toolService as any).InvokeTool(request, agentsMetadata, { deadline }, (error: Error | null, response: any) => {
        if (error) reject(error);
        else if (response.status !== 'TOOL_RESULT_STATUS_SUCCESS') reject(new Error(`InvokeTool: ${response.status}`));
        else resolve();
      });
    });
  let id = 0;
  const rpc = async (body: unknown) => {
    const response = await fetch(`${gatewayUrl}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: gatewayAuthorization },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  const request = () => ({
    jsonrpc: '2.0', id: ++id, method: 'tools.call',
    params: { name: workload.tool, server: workload.server, arguments: workload.arguments },
  });
  const callViaGateway = async () => {
    const reply = await rpc(request());
    if (reply.error || reply.result?.isError) throw new Error(`gateway call failed: ${JSON.stringify(reply.error ?? reply.result)}`);
  };

  // Both paths answer: check once, then warm up (JIT, connections, caches).
  await callDirect();
  await callAgents();
  await callViaGateway();
  await timeSequential(warmup, callDirect);
  await timeSequential(warmup, callAgents);
  await timeSequential(warmup, callViaGateway);

  // Interleave rounds so drift on a shared machine hits all paths alike.
  const directSamples: number[] = [];
  const agentsSamples: number[] = [];
  const gatewaySamples: number[] = [];
  const rounds = 5;
  for (let round = 0; round < rounds; round++) {
    directSamples.push(...(await timeSequential(Math.ceil(iterations / rounds), callDirect)));
    agentsSamples.push(...(await timeSequential(Math.ceil(iterations / rounds), callAgents)));
    gatewaySamples.push(...(await timeSequential(Math.ceil(iterations / rounds), callViaGateway)));
  }
  const gatewaySummary = summarize(gatewaySamples);

  const batchStarted = process.hrtime.bigint();
  for (let index = 0; index < batches; index++) {
    const replies = (await rpc(Array.from({ length: batchSize }, request))) as any[];
    if (replies.length !== batchSize || replies.some((reply) => reply.error)) throw new Error('batch call failed');
  }
  const batchSeconds = Number(process.hrtime.bigint() - batchStarted) / 1e9;
  report(workload.label, summarize(directSamples), summarize(agentsSamples), gatewaySummary, batches * batchSize, batchSeconds, 1000 / gatewaySummary.mean);
}

function report(
  label: string,
  direct: LatencySummary,
  agents: LatencySummary,
  gateway: LatencySummary,
  batchCalls: number,
  batchSeconds: number,
  sequentialCallsPerSecond: number,
): void {
  const row = (name: string, s: LatencySummary) =>
    `${name.padEnd(44)} ${s.p50.toFixed(2).padStart(8)} ${s.p90.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.mean.toFixed(2).padStart(8)}`;
  console.log(`\n${label}: ${direct.count} calls per path, sequential`);
  console.log(`${'path'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)}`);
  console.log(row('direct: MCP client → MCP server', direct));
  console.log(row('agents: gRPC InvokeTool → agents → MCP', agents));
  console.log(row('gateway: JSON-RPC → gRPC → agents → MCP', gateway));
  console.log(`added by gateway + gRPC + agents hops: p50 ${(gateway.p50 - direct.p50).toFixed(2)} ms, p99 ${(gateway.p99 - direct.p99).toFixed(2)} ms`);
  console.log(
    `  of which gRPC + agents: p50 ${(agents.p50 - direct.p50).toFixed(2)} ms; ` +
      `HTTP + JSON-RPC at the gateway: p50 ${(gateway.p50 - agents.p50).toFixed(2)} ms`,
  );
  console.log(`ratio gateway/direct: p50 ${(gateway.p50 / direct.p50).toFixed(2)}x, p99 ${(gateway.p99 / direct.p99).toFixed(2)}x`);
  const batchRate = batchCalls / batchSeconds;
  console.log(
    `batch throughput: ${batchCalls} calls in batches of ${batchSize}: ${batchRate.toFixed(0)} calls/s ` +
      `(sequential single calls: ${sequentialCallsPerSecond.toFixed(0)} calls/s, ratio ${(batchRate / sequentialCallsPerSecond).toFixed(2)}x)`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : String(error));
  process.exit(1);
});
