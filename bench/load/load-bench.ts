/**
 * Load: the whole stack as `npm start` runs it (one embedded PostgreSQL, four
 * apps, free ports, a temp directory), driven by closed-loop workers at
 * concurrency 20 and 100 for --duration seconds per phase:
 *   - tools.list through the gateway (JSON-RPC),
 *   - tools.call get_alerts with abstract_domains through the gateway (each call issues a resource),
 *   - data-plane fetches POST /s2sp/data/<token> on the weather server directly,
 *     each on a resource_url issued before the phase (get_alerts over MCP on the weather server).
 * Prints calls/s, p50, p99, p99/p50 and errors by kind per method × concurrency, every
 * app's RSS around each phase, and whether the target holds (p99 <= 10 × p50 at c100).
 * Loopback only; stops the stack and removes its directory when done.
 *
 *   npm run build && node dist/bench/load/load-bench.js [--duration 15] [--pool 5000] [--area CA]
 */
import { chmodSync } from 'node:fs';
import * as http from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';
import { gatewayHealth, startStack, type RunningStack } from '../../test/support/start-all';
import { tempDir } from '../../test/support/stack';
import { jsonPoster } from '../gateway/bench-clients';
import { stackApps } from '../memory/stack-processes';
import { CallFailure, NO_MORE_WORK, runClosedLoop } from './closed-loop';
import { printLatencyTable, printRssTable, printTargets, type MeasuredPhase } from './load-report';
import { fillResourcePool } from './resource-pool';
import { RssSampler } from './rss-sampler';
import { requestScopedSignalFetch } from '../../libs/agents/src/mcp/request-scoped-signal-fetch';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    pool: { type: 'string', default: '5000' },
    area: { type: 'string', default: 'CA' },
  },
});
const phaseMs = positive('duration', Number(values.duration)) * 1000;
const poolSize = positive('pool', Number(values.pool));
const area = values.area;
const CONCURRENCIES = [20, 100];
const POOL_FILL_BUDGET_MS = 30_000;
/** Start-up (up to 140 s on a loaded machine), six phases, pool filling, and slack. */
const WHOLE_RUN_BOUND_MS = 140_000 + 6 * phaseMs + 2 * POOL_FILL_BUDGET_MS + 60_000;

type Call = () => Promise<unknown>;

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** A JSON-RPC call through the gateway; `missing` names what a successful result lacks, if anything. */
function gatewayCall(
  post: (body: unknown) => Promise<any>,
  method: string,
  params: unknown,
  missing: (result: any) => string | undefined = () => undefined,
): Call {
  let id = 0;
  return async () => {
    const reply = await post({ jsonrpc: '2.0', id: ++id, method, params });
    if (reply?.error) throw new CallFailure(`rpc ${reply.error.code}`);
    if (reply?.result?.isError) throw new CallFailure('tool error');
    const lack = missing(reply?.result);
    if (lack) throw new CallFailure(`result without ${lack}`);
    return reply.result;
  };
}

function withoutResourceUrl(result: any): string | undefined {
  return typeof result?.structuredContent?.resource_url === 'string' ? undefined : 'resource_url';
}

function dataPlaneFetch(pool: string[], authorization: string, agent: http.Agent): Call {
  return async () => {
    const resourceUrl = pool.pop();
    if (resourceUrl === undefined) return NO_MORE_WORK;
    const reply = await jsonPoster(resourceUrl, authorization, agent)({});
    if (!Array.isArray(reply?.body))
      throw new CallFailure(`data-plane ${reply?.error?.code ?? JSON.stringify(reply).slice(0, 40)}`);
    return reply;
  };
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

async function runPhases(stack: RunningStack, authDir: string): Promise<MeasuredPhase[]> {
  const minter = new TokenMinter({ issuer: 's2sp-dev', signingKey: new DevKeyStore({ dataDir: authDir }) });
  const gatewayToken = await minter.mint({
    subject: 'load',
    scopes: ['tools:list', 'tools:call', 'weather:read'],
    audience: 'gateway',
    ttlSeconds: 3600,
  });
  const weatherToken = await minter.mint({
    subject: 'load',
    scopes: ['tools:call', 'weather:read', 's2sp:data:read'],
    audience: 'weather-server',
    ttlSeconds: 3600,
  });
  const agent = new http.Agent({ keepAlive: true });
  const post = jsonPoster(`${stack.gatewayUrl}/rpc`, `Bearer ${gatewayToken}`, agent);
  const weather = new Client({ name: 'load-bench', version: '1.0.0' });
  await weather.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.weatherUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${weatherToken}` } },
      fetch: requestScopedSignalFetch(),
    }),
  );
  const pool: string[] = [];
  const methods: Array<{ method: string; call: Call; prepare?: () => Promise<void> }> = [
    { method: 'tools.list', call: gatewayCall(post, 'tools.list', {}) },
    {
      method: 'tools.call get_alerts',
      call: gatewayCall(
        post,
        'tools.call',
        { name: 'get_alerts', server: 'weather', arguments: { area, abstract_domains: 'event' } },
        withoutResourceUrl,
      ),
    },
    {
      method: 'data-plane fetch',
      call: dataPlaneFetch(pool, `Bearer ${weatherToken}`, agent),
      prepare: () => fillResourcePool(weather, pool, poolSize, POOL_FILL_BUDGET_MS, area),
    },
  ];
  const apps = stackApps(stack.pid);
  const phases: MeasuredPhase[] = [];
  try {
    // Warm-up, untimed: connections, JIT, the gateway's tool catalog; and a check that each call works.
    await fillResourcePool(weather, pool, 20, POOL_FILL_BUDGET_MS, area);
    for (const { method, call } of methods) {
      const warmUp = await runClosedLoop(4, 2_000, call);
      if (warmUp.successLatenciesMs.length === 0)
        throw new Error(`${method} fails: ${[...warmUp.errorsByKind.keys()].join(', ')}`);
    }
    for (const concurrency of CONCURRENCIES) {
      for (const { method, call, prepare } of methods) {
        await prepare?.();
        console.log(
          `[${new Date().toISOString()}] ${method} at c${concurrency} for ${phaseMs / 1000} s (load average ${load()})`,
        );
        const sampler = new RssSampler(apps);
        sampler.start();
        const result = await runClosedLoop(concurrency, phaseMs, call);
        phases.push({ method, concurrency, result, rss: sampler.stop() });
      }
    }
  } finally {
    await weather.close();
    agent.destroy();
  }
  return phases;
}

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} cores, load average (1/5/15 min) before start ${load()}`);
  const cwd = tempDir('s2sp-load-');
  chmodSync(cwd.path, 0o755); // the embedded server runs as another user when this runs as root
  let stack: RunningStack | undefined;
  const bound = setTimeout(() => {
    console.error(`load-bench: not done within ${WHOLE_RUN_BOUND_MS / 1000} s; stopping`);
    void (stack?.stop() ?? Promise.resolve()).finally(() => {
      cwd.remove();
      process.exit(1);
    });
  }, WHOLE_RUN_BOUND_MS);
  try {
    stack = await startStack({
      cwd: cwd.path,
      timeoutMs: 140_000,
      // The default per-caller limit (120 calls/min) would answer almost every call with 5001.
      env: { GATEWAY_RATE_LIMIT: '100000000', LOG_LEVELS: 'error,warn' },
    });
    const health = await gatewayHealth(stack.gatewayUrl);
    if (health !== 'ok') throw new Error(`gateway /health: ${health}`);
    const phases = await runPhases(stack, join(cwd.path, '.data', 'auth'));
    console.log(`load average after the phases ${load()}`);
    console.log();
    printLatencyTable(phases);
    console.log();
    printRssTable(phases);
    console.log();
    if (!printTargets(phases)) process.exitCode = 2;
  } finally {
    const stopped = await stack?.stop();
    if (stopped !== undefined && stopped !== 0)
      console.error(`the stack exited with ${stopped}:\n${stack?.output().slice(-2000)}`);
    cwd.remove();
    clearTimeout(bound);
  }
}

main().catch((error: unknown) => {
  console.error('load-bench failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
