/**
 * Paired A/B of one gateway method: this checkout's stack and a baseline
 * checkout's stack (built, e.g. a `git worktree` of an older commit) run side
 * by side, and short closed-loop phases alternate between them (A B A B …), so
 * both see the same minutes of a shared machine. Per phase: calls/s, and each
 * app's CPU time (utime + stime from /proc) per successful call. Prints every
 * round, then the medians and the median of the per-round ratios A/B.
 *
 *   npm run build && node dist/bench/load/paired-ab.js --baseline ../old-checkout \
 *     [--method tools.list|get_alerts] [--concurrency 20] [--seconds 4] [--rounds 5]
 */
import { chmodSync } from 'node:fs';
import * as http from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';
import { gatewayHealth, startStack, type RunningStack } from '../../test/support/start-all';
import { tempDir } from '../../test/support/stack';
import { jsonPoster } from '../gateway/bench-clients';
import { median } from '../gateway/percentiles';
import { stackApps, type StackApp } from '../memory/stack-processes';
import { CallFailure, runClosedLoop } from './closed-loop';
import { cpuMs } from './process-cpu';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    method: { type: 'string', default: 'tools.list' },
    concurrency: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '5' },
  },
});
const METHODS: Record<string, { method: string; params: unknown }> = {
  'tools.list': { method: 'tools.list', params: {} },
  get_alerts: {
    method: 'tools.call',
    params: { name: 'get_alerts', server: 'weather', arguments: { area: 'CA', abstract_domains: 'event' } },
  },
};
const measured = METHODS[values.method];
if (!measured) throw new Error(`--method must be one of ${Object.keys(METHODS).join(', ')}`);
if (!values.baseline) throw new Error('--baseline <checkout> is required (a built checkout to compare against)');
const concurrency = positive('concurrency');
const phaseMs = positive('seconds') * 1000;
const rounds = positive('rounds');
const STACK_READY_MS = 140_000;

function positive(name: 'concurrency' | 'seconds' | 'rounds'): number {
  const value = Number(values[name]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

interface Side {
  label: string;
  stack: RunningStack;
  removeDir(): void;
  apps: StackApp[];
  agent: http.Agent;
  call(): Promise<unknown>;
  phases: Array<{ callsPerSecond: number; cpuMsPerCall: number[]; load: number }>;
}

async function startSide(label: string, script: string | undefined): Promise<Side> {
  const dir = tempDir('s2sp-ab-');
  chmodSync(dir.path, 0o755); // the embedded server runs as another user when this runs as root
  const stack = await startStack({
    cwd: dir.path,
    script,
    timeoutMs: STACK_READY_MS,
    env: { GATEWAY_RATE_LIMIT: '100000000', LOG_LEVELS: 'error,warn' },
  });
  const side: Side = {
    label,
    stack,
    removeDir: () => dir.remove(),
    apps: stackApps(stack.pid),
    agent: new http.Agent({ keepAlive: true }),
    call: async () => undefined,
    phases: [],
  };
  const health = await gatewayHealth(stack.gatewayUrl);
  if (health !== 'ok') throw new Error(`${label}: gateway /health says ${health}`);
  const minter = new TokenMinter({
    issuer: 's2sp-dev',
    signingKey: new DevKeyStore({ dataDir: join(dir.path, '.data', 'auth') }),
  });
  const token = await minter.mint({
    subject: 'load',
    scopes: ['tools:list', 'tools:call', 'weather:read'],
    audience: 'gateway',
    ttlSeconds: 3600,
  });
  const post = jsonPoster(`${stack.gatewayUrl}/rpc`, `Bearer ${token}`, side.agent);
  let id = 0;
  side.call = async () => {
    const reply = await post({ jsonrpc: '2.0', id: ++id, method: measured.method, params: measured.params });
    if (reply?.error) throw new CallFailure(`rpc ${reply.error.code}`);
    if (reply?.result?.isError) throw new CallFailure('tool error');
    return reply.result;
  };
  const warmUp = await runClosedLoop(4, 2_000, side.call);
  if (warmUp.successLatenciesMs.length === 0)
    throw new Error(`${label}: ${measured.method} fails: ${[...warmUp.errorsByKind.keys()].join(', ')}`);
  return side;
}

async function runPhase(side: Side): Promise<string> {
  const before = side.apps.map((app) => cpuMs(app.pid));
  const load = loadavg()[0];
  const result = await runClosedLoop(concurrency, phaseMs, side.call);
  const calls = result.successLatenciesMs.length;
  const cpuMsPerCall = side.apps.map((app, index) => (cpuMs(app.pid) - before[index]) / Math.max(1, calls));
  const callsPerSecond = calls / (result.elapsedMs / 1000);
  side.phases.push({ callsPerSecond, cpuMsPerCall, load });
  const errors = result.errorsByKind.size > 0 ? `  errors ${JSON.stringify([...result.errorsByKind])}` : '';
  return `${side.label.padEnd(8)} ${callsPerSecond.toFixed(1).padStart(7)} calls/s  CPU ms/call ${cpuColumns(side, cpuMsPerCall)}  load ${load.toFixed(2)}${errors}`;
}

function cpuColumns(side: Side, perApp: readonly number[]): string {
  const total = perApp.reduce((sum, value) => sum + value, 0);
  return `${side.apps.map((app, index) => `${app.name} ${perApp[index].toFixed(2)}`).join(', ')}; total ${total.toFixed(2)}`;
}

function summary(side: Side, baseline: Side): string {
  const rate = median(side.phases.map((phase) => phase.callsPerSecond));
  const ratio = median(side.phases.map((phase, index) => phase.callsPerSecond / baseline.phases[index].callsPerSecond));
  const cpu = side.apps.map((_, index) => median(side.phases.map((phase) => phase.cpuMsPerCall[index])));
  return `${side.label.padEnd(8)} ${rate.toFixed(1).padStart(7)} calls/s (median; per-round ratio to ${baseline.label} ${ratio.toFixed(2)})  CPU ms/call ${cpuColumns(side, cpu)}`;
}

async function main(): Promise<void> {
  const sides: Side[] = [];
  try {
    sides.push(await startSide('this', undefined));
    sides.push(
      await startSide('baseline', join(resolve(values.baseline as string), 'dist', 'scripts', 'start-all.js')),
    );
    console.log(
      `${measured.method} at c${concurrency}, ${phaseMs / 1000} s a phase, ${rounds} rounds alternating this / baseline (${values.baseline})`,
    );
    for (let round = 1; round <= rounds; round++) {
      for (const side of sides) console.log(`round ${round} ${await runPhase(side)}`);
    }
    const baseline = sides[1];
    console.log('medians:');
    for (const side of sides) console.log(summary(side, baseline));
    console.log(
      `load average (1 min) at the phases' starts: median ${median(sides.flatMap((side) => side.phases.map((phase) => phase.load))).toFixed(2)}`,
    );
  } finally {
    for (const side of sides) {
      side.agent.destroy();
      await side.stack.stop();
      side.removeDir();
    }
  }
}

main().catch((error: unknown) => {
  console.error('paired-ab failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
