/**
 * Gateway benchmark: the same MCP tool call made
 *   (a) directly, MCP client → weather server, and
 *   (b) through the platform path, JSON-RPC → gateway → gRPC → agents → MCP → weather server,
 * in one run on one machine, so the difference is the cost of the two added hops.
 * A third path, gRPC InvokeTool straight to the agents (→ MCP → server), splits that
 * cost into the gateway hop and the agents hop. Also measures batch throughput
 * through the gateway.
 *
 *   npm run build && node dist/bench/gateway/gateway-bench.js [iterations] [auto|legacy]
 *
 * The second argument is the agents' protocol negotiation with the MCP servers
 * (AgentsMcpConfig.protocol; default auto, which speaks 2026-07-28 with these servers).
 */
import * as grpc from '@grpc/grpc-js';
import * as http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject } from '@s2sp/contracts';
import { startAgents } from '../../libs/agents/src/start-agents';
import {
  DEFAULT_MCP_PROTOCOL,
  MCP_PROTOCOL_MODES,
  type McpProtocolMode,
} from '../../libs/agents/src/mcp/mcp-protocol-mode';
import { requestScopedSignalFetch } from '../../libs/agents/src/mcp/request-scoped-signal-fetch';
import { DEFAULT_AGENTS_CONFIG } from '../../libs/agents/src/agents.config';
import { startGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { startWeatherServer } from '../../apps/weather-server/src/weather-server';
import { startTestMcpServer } from '../../test/support/test-mcp-server';
import { bearerFor } from '../../test/support/tokens';
import { invokeTool, jsonPoster, toolServiceClient } from './bench-clients';
import { median, summarize, timeSequential, type LatencySummary } from './percentiles';
import { runBench } from './small-call-stack';

const iterations = Number(process.argv[2] ?? process.env.BENCH_ITERATIONS ?? 500);
const warmup = Math.min(100, iterations);
const protocol = process.argv[3] ?? DEFAULT_MCP_PROTOCOL;
if (!(MCP_PROTOCOL_MODES as readonly string[]).includes(protocol))
  throw new Error(`the protocol must be one of ${MCP_PROTOCOL_MODES.join(', ')} (got ${protocol})`);
const batchSize = 50;
const batches = Math.max(4, Math.round(iterations / batchSize));

interface Workload {
  label: string;
  server: 'testkit' | 'weather';
  tool: string;
  arguments: Record<string, unknown>;
}

// (1) A small call, to see whether transcoding stays under a millisecond: a tool
//     whose answer is a few bytes, so the difference is the hops themselves.
// (2) A realistic S2SP call: DC's alerts, abstract "event", body inline (sync, so
//     nothing is written to a database); through the agents the resource server
//     also counts the body's tokens for the usage report, which costs CPU.
const WORKLOADS: Workload[] = [
  { label: 'small call: echo', server: 'testkit', tool: 'echo', arguments: { text: 'hi' } },
  {
    label: 'S2SP call: get_alerts DC sync',
    server: 'weather',
    tool: 'get_alerts',
    arguments: { area: 'DC', abstract_domains: 'event', mode: 'sync' },
  },
];

async function main(): Promise<void> {
  const weather = await startWeatherServer({
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    dataDir: ':memory:',
    resourceTtlMs: 600_000,
    sweepIntervalMs: 0,
    auth: { audience: 'weather-server' },
  });
  const testkit = await startTestMcpServer();
  const agents = await startAgents(
    {
      ...DEFAULT_AGENTS_CONFIG,
      port: 0,
      dataDir: ':memory:',
      auth: { audience: 'agents' },
      mcp: { ...DEFAULT_AGENTS_CONFIG.mcp, protocol: protocol as McpProtocolMode },
      mcpServers: [
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'testkit', url: testkit.mcpUrl },
      ],
    },
    { logger: false },
  );
  const base = defaultGatewayConfig();
  const gateway = await startGateway({
    ...base,
    port: 0,
    agentsUrl: agents.url,
    dataDir: ':memory:',
    logger: false,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const directClients = {
    weather: await connect(`${weather.url}/mcp`),
    testkit: await connect(testkit.mcpUrl),
  };
  const toolService = toolServiceClient(agents.url);
  try {
    for (const workload of WORKLOADS)
      await runWorkload(workload, directClients[workload.server], toolService, gateway.url);
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
  // The same per-request signal the agents' pooled client uses: plain fetch gathers an abort
  // listener per call on the transport's signal, which slows a long-lived client down.
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization } },
      fetch: requestScopedSignalFetch(),
    }),
  );
  return client;
}

async function runWorkload(
  workload: Workload,
  direct: Client,
  toolService: grpc.Client,
  gatewayUrl: string,
): Promise<void> {
  const callDirect = async () => {
    const result = await direct.callTool({ name: workload.tool, arguments: workload.arguments });
    if (result.isError) throw new Error('direct call failed');
  };
  const agentsMetadata = new grpc.Metadata();
  agentsMetadata.set('authorization', await bearerFor({ audience: 'agents' }));
  const gatewayAuthorization = await bearerFor({ audience: 'gateway' });
  const callAgents = () =>
    invokeTool(toolService, agentsMetadata, workload.tool, workload.server, workload.arguments as JsonObject);
  let id = 0;
  const keepAlive = new http.Agent({ keepAlive: true });
  const rpcOverHttp = jsonPoster(`${gatewayUrl}/rpc`, gatewayAuthorization, keepAlive);
  const rpc = async (body: unknown) => {
    const response = await fetch(`${gatewayUrl}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: gatewayAuthorization },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  const request = () => ({
    jsonrpc: '2.0',
    id: ++id,
    method: 'tools.call',
    params: { name: workload.tool, server: workload.server, arguments: workload.arguments },
  });
  const checked = (reply: any) => {
    if (reply.error || reply.result?.isError)
      throw new Error(`gateway call failed: ${JSON.stringify(reply.error ?? reply.result)}`);
  };
  const callViaGateway = async () => checked(await rpcOverHttp(request()));
  const callViaGatewayWithFetch = async () => checked(await rpc(request()));

  const paths: MeasuredPath[] = [
    { name: 'direct: MCP client → MCP server', call: callDirect },
    { name: 'agents: gRPC InvokeTool → agents → MCP', call: callAgents },
    { name: 'gateway: JSON-RPC → gRPC → agents → MCP', call: callViaGateway },
    { name: '  the same, client on fetch (undici)', call: callViaGatewayWithFetch },
  ].map((path) => ({ ...path, samples: [], cpuMicros: 0 }));

  // Every path answers: check once, then warm up (JIT, connections, caches).
  for (const path of paths) await path.call();
  for (const path of paths) await timeSequential(warmup, path.call);

  // Interleave call by call, rotating which path goes first, so drift on a shared machine
  // (and each call's trailing work) hits every path alike; samples of one iteration are paired.
  for (let index = 0; index < iterations; index++) {
    for (let offset = 0; offset < paths.length; offset++) {
      const path = paths[(index + offset) % paths.length];
      const cpuBefore = process.cpuUsage();
      const started = process.hrtime.bigint();
      await path.call();
      path.samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      const cpu = process.cpuUsage(cpuBefore);
      path.cpuMicros += cpu.user + cpu.system;
    }
  }

  const batchStarted = process.hrtime.bigint();
  for (let index = 0; index < batches; index++) {
    const replies = (await rpcOverHttp(Array.from({ length: batchSize }, request))) as any[];
    if (replies.length !== batchSize || replies.some((reply) => reply.error)) throw new Error('batch call failed');
  }
  const batchSeconds = Number(process.hrtime.bigint() - batchStarted) / 1e9;
  keepAlive.destroy();
  report(workload.label, paths, batches * batchSize, batchSeconds);
}

interface MeasuredPath {
  name: string;
  call: () => Promise<void>;
  samples: number[];
  /** CPU time of the whole process (every thread) while this path ran. */
  cpuMicros: number;
}

function report(label: string, paths: MeasuredPath[], batchCalls: number, batchSeconds: number): void {
  const summaries = paths.map((path) => summarize(path.samples));
  const [direct, agents, gateway, gatewayWithFetch] = summaries as [
    LatencySummary,
    LatencySummary,
    LatencySummary,
    LatencySummary,
  ];
  const cpuPerCall = (path: MeasuredPath) => path.cpuMicros / 1000 / path.samples.length;
  const [, agentsPath, gatewayPath] = paths as [MeasuredPath, MeasuredPath, MeasuredPath];
  console.log(`\n${label}: ${direct.count} calls per path, sequential; agents → MCP servers: protocol ${protocol}`);
  console.log(
    `${'path'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)} ${'CPU ms'.padStart(8)}`,
  );
  paths.forEach((path, index) => {
    const s = summaries[index];
    console.log(
      `${path.name.padEnd(44)} ${s.p50.toFixed(2).padStart(8)} ${s.p90.toFixed(2).padStart(8)} ${s.p99.toFixed(2).padStart(8)} ${s.mean.toFixed(2).padStart(8)} ${cpuPerCall(path).toFixed(2).padStart(8)}`,
    );
  });
  console.log(
    `added by gateway + gRPC + agents hops: p50 ${(gateway.p50 - direct.p50).toFixed(2)} ms, p99 ${(gateway.p99 - direct.p99).toFixed(2)} ms`,
  );
  console.log(
    `  of which gRPC + agents: p50 ${(agents.p50 - direct.p50).toFixed(2)} ms; ` +
      `the gateway hop (HTTP + JSON-RPC + gateway): p50 ${(gateway.p50 - agents.p50).toFixed(2)} ms, p99 ${(gateway.p99 - agents.p99).toFixed(2)} ms, ` +
      `CPU ${(cpuPerCall(paths[2]) - cpuPerCall(paths[1])).toFixed(2)} ms per call`,
  );
  const pairedHop = median(gatewayPath.samples.map((ms, index) => ms - agentsPath.samples[index]));
  console.log(
    `  the gateway hop, paired: median of (gateway − agents) over the ${gateway.count} iterations: ${pairedHop.toFixed(2)} ms`,
  );
  console.log(
    `  a fetch client instead of node:http adds p50 ${(gatewayWithFetch.p50 - gateway.p50).toFixed(2)} ms (client side)`,
  );
  console.log(
    `ratio gateway/direct: p50 ${(gateway.p50 / direct.p50).toFixed(2)}x, p99 ${(gateway.p99 / direct.p99).toFixed(2)}x`,
  );
  const batchRate = batchCalls / batchSeconds;
  const sequentialCallsPerSecond = 1000 / gateway.mean;
  console.log(
    `batch throughput: ${batchCalls} calls in batches of ${batchSize}: ${batchRate.toFixed(0)} calls/s ` +
      `(sequential single calls: ${sequentialCallsPerSecond.toFixed(0)} calls/s, ratio ${(batchRate / sequentialCallsPerSecond).toFixed(2)}x)`,
  );
}

runBench(main);
