// What S2spModule adds to a tools/call, measured against the same tools on plain @rekog/mcp-nest
// and on the raw MCP SDK in the same run: requests/s, p50/p99 latency and the server's CPU per
// call (its process and every process under it, i.e. the embedded PostgreSQL server too), at
// each concurrency, over HTTP sessions and stateless HTTP (protocol 2025-11-25) and on the
// 2026-07-28 era (`modern`, the agents' default), for a plain tool (`echo`) and for
// `get_rows` (an S2SP resource tool called with abstract_domains on S2spModule: a resource_url
// issued per call; a plain tool answering the same rows elsewhere).
//   npm run build && node dist/bench/framework-overhead/framework-overhead-bench.js \
//     [--seconds 3] [--rounds 3] [--slices 6] [--concurrency 1,16] [--modes sessions,stateless,modern]
//     [--settle 40] [--idle] [--pin]
// Servers run in their own processes; each round gives every server --seconds in --slices slices
// taken in turn (A B C A B C …, an order that rotates between rounds), and the figures are the
// medians over the rounds (the ratios: the median of each round's ratio, with their range). Each
// server's RSS is read --settle seconds after its warm-up calls (V8 gives memory back some tens
// of seconds after the last busy moment) and again after the measured calls. With --idle, nothing
// is called: each server is started alone, left --settle seconds, its RSS read and the server
// stopped, --rounds times, and the medians printed as ratios of plain mcp-nest's. With --pin, the
// servers run on CPU 0 and the client on the others (cpu-pinning.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { median, summarize } from '../gateway/percentiles';
import { runClosedLoop } from '../load/closed-loop';
import { treeCpuMs } from '../load/process-cpu';
import { rssMiB } from '../soak/process-memory';
import { onServerCpu, pinClient } from './cpu-pinning';
import { McpHttpCaller } from './mcp-http-caller';
import { OVERHEAD_MODES, SERVER_KINDS, type OverheadMode, type ServerKind } from './overhead-servers';
import { inTurns, phaseOfSlices, type Phase, type Slice } from './phase-slices';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    slices: { type: 'string', default: '6' },
    concurrency: { type: 'string', default: '1,16' },
    modes: { type: 'string', default: OVERHEAD_MODES.join(',') },
    settle: { type: 'string', default: '40' },
    idle: { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false },
  },
});
const PHASE_MS = Number(values.seconds) * 1000;
const ROUNDS = Number(values.rounds);
const SLICES = Number(values.slices);
if (!Number.isSafeInteger(SLICES) || SLICES < 1)
  throw new Error(`--slices: "${values.slices}" is not a positive integer`);
const CONCURRENCIES = values.concurrency.split(',').map(Number);
const MODES = values.modes.split(',') as OverheadMode[];
for (const mode of MODES)
  if (!OVERHEAD_MODES.includes(mode)) throw new Error(`--modes: "${mode}" is none of ${OVERHEAD_MODES.join(', ')}`);
const WARM_UP_CALLS = 300;
const SETTLE_MS = Number(values.settle) * 1000;

type ToolCase = 'plain' | 'async';
const TOOL_CASES: readonly ToolCase[] = ['plain', 'async'];

interface ServerProcess {
  kind: ServerKind;
  pid: number;
  callers: McpHttpCaller[];
  stop(): Promise<void>;
}

/** A server process once it listens: its URL, and `stop` (closes its stdin, waits for its exit). */
async function spawnServer(
  kind: ServerKind,
  mode: OverheadMode,
  dataDir: string,
): Promise<{ pid: number; url: string; stop(): Promise<void> }> {
  const serverArgs = [join(__dirname, 'overhead-server-main.js'), kind, mode, dataDir];
  const [command, args] = values.pin ? onServerCpu(process.execPath, serverArgs) : [process.execPath, serverArgs];
  const child = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVELS: 'error,warn' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}) before it listened`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    pid: child.pid!,
    url,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

async function startServerProcess(kind: ServerKind, mode: OverheadMode, dataDir: string): Promise<ServerProcess> {
  const { pid, url, stop } = await spawnServer(kind, mode, dataDir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(...CONCURRENCIES) });
  const era = mode === 'modern' ? '2026' : '2025';
  const callers = Array.from({ length: Math.max(...CONCURRENCIES) }, () => new McpHttpCaller(url, agent, era));
  for (const caller of callers) await caller.open();
  return {
    kind,
    pid,
    callers,
    async stop() {
      agent.destroy();
      await stop();
    },
  };
}

function call(server: ServerProcess, caller: McpHttpCaller, tool: ToolCase): Promise<unknown> {
  if (tool === 'plain') return caller.callTool('echo', { text: 'hello' });
  const args = server.kind === 's2sp' ? { area: 'CA', abstract_domains: 'event,severity' } : { area: 'CA' };
  return caller.callTool('get_rows', args);
}

async function measureSlice(
  server: ServerProcess,
  tool: ToolCase,
  concurrency: number,
  durationMs: number,
): Promise<Slice> {
  let next = 0;
  const cpuBefore = treeCpuMs(server.pid);
  const result = await runClosedLoop(concurrency, durationMs, () =>
    call(server, server.callers[next++ % concurrency], tool),
  );
  const cpuAfter = treeCpuMs(server.pid);
  let errors = 0;
  for (const [kind, count] of result.errorsByKind) {
    errors += count;
    console.error(`  ${server.kind} ${tool} c=${concurrency}: ${count} × ${kind}`);
  }
  return {
    calls: result.successLatenciesMs.length,
    elapsedMs: result.elapsedMs,
    latenciesMs: result.successLatenciesMs,
    cpuMs: cpuAfter - cpuBefore,
    errors,
  };
}

/**
 * One round of a tool at one concurrency: each server gets PHASE_MS in all, in SLICES slices
 * taken in turn, so that the host's speed, which moves within seconds on a shared VM, weighs on
 * every server alike and the ratios within the round keep little of it.
 */
async function measureRound(servers: ServerProcess[], tool: ToolCase, concurrency: number): Promise<Phase[]> {
  const slices = await inTurns(servers, SLICES, (server) => measureSlice(server, tool, concurrency, PHASE_MS / SLICES));
  return slices.map(phaseOfSlices);
}

const format = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

async function runMode(mode: OverheadMode): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 's2sp-overhead-'));
  chmodSync(dataDir, 0o755); // the embedded server runs as another user when this runs as root
  const servers: ServerProcess[] = [];
  try {
    for (const kind of SERVER_KINDS) servers.push(await startServerProcess(kind, mode, join(dataDir, kind)));
    for (const server of servers)
      for (const tool of TOOL_CASES)
        for (let index = 0; index < WARM_UP_CALLS; index++) await call(server, server.callers[0], tool);

    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rssSettled = new Map(servers.map((server) => [server.kind, rssMiB(server.pid) ?? NaN]));
    const phases = new Map<string, Phase[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const tool of TOOL_CASES)
        for (const concurrency of CONCURRENCIES) {
          const order = servers.map((_, turn) => servers[(turn + round) % servers.length]);
          const measured = await measureRound(order, tool, concurrency);
          for (const [index, server] of order.entries()) {
            const key = `${tool}/${concurrency}/${server.kind}`;
            phases.set(key, [...(phases.get(key) ?? []), measured[index]]);
          }
        }

    const title = mode === 'modern' ? 'protocol 2026-07-28 (stateless)' : `${mode} HTTP (protocol 2025-11-25)`;
    console.log(
      `\n${title} (${ROUNDS} rounds of ${PHASE_MS / 1000} s per server, ${SLICES === 1 ? 'in one piece' : `in ${SLICES} slices taken in turn`}; ` +
        'medians over rounds, ratios taken within each round, with their range over the rounds)',
    );
    console.log(
      'tool   conc  server     req/s     p50 ms  p99 ms  CPU ms/call  errors  ×mcp-nest req/s  (rounds)     ×raw-sdk req/s',
    );
    for (const tool of TOOL_CASES)
      for (const concurrency of CONCURRENCIES) {
        const measuredOf = (kind: ServerKind) => phases.get(`${tool}/${concurrency}/${kind}`)!;
        const rate = (kind: ServerKind) => median(measuredOf(kind).map((p) => p.callsPerSecond));
        // The servers of a round take turns within seconds: the ratio within a round is free of the
        // host's drift between rounds, and its median over the rounds is what the table gives.
        const ratios = (kind: ServerKind, baseline: ServerKind) =>
          measuredOf(kind).map((phase, round) => phase.callsPerSecond / measuredOf(baseline)[round].callsPerSecond);
        for (const kind of SERVER_KINDS) {
          const measured = measuredOf(kind);
          const versusMcpNest = ratios(kind, 'mcp-nest');
          const latency = summarize(measured.flatMap((phase) => phase.latenciesMs));
          console.log(
            [
              tool.padEnd(6),
              String(concurrency).padStart(4),
              ` ${kind.padEnd(9)}`,
              format(rate(kind), 0).padStart(8),
              format(latency.p50, 3).padStart(10),
              format(latency.p99, 3).padStart(7),
              format(median(measured.map((phase) => phase.cpuMsPerCall)), 3).padStart(12),
              String(measured.reduce((sum, phase) => sum + phase.errors, 0)).padStart(7),
              `${format(median(versusMcpNest))}×`.padStart(17),
              `${format(Math.min(...versusMcpNest))}–${format(Math.max(...versusMcpNest))}`.padStart(11),
              `${format(median(ratios(kind, 'raw-sdk')))}×`.padStart(15),
            ].join(' '),
          );
        }
      }
    printMemory(servers, rssSettled);
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each server's RSS once settled after its warm-up calls and after the measured calls, and as a ratio of plain mcp-nest's. */
function printMemory(servers: ServerProcess[], rssSettled: Map<ServerKind, number>): void {
  const rssNow = new Map(servers.map((server) => [server.kind, rssMiB(server.pid) ?? NaN]));
  console.log(
    `RSS MiB (the embedded PostgreSQL server of s2sp not counted)${`${SETTLE_MS / 1000} s after warm-up`.padStart(20)}   after the run`,
  );
  for (const kind of SERVER_KINDS) {
    const figure = (rss: Map<ServerKind, number>) =>
      `${format(rss.get(kind)!, 1)} (${format(rss.get(kind)! / rss.get('mcp-nest')!)}×)`.padStart(16);
    console.log(`  ${kind.padEnd(58)}${figure(rssSettled)}${figure(rssNow)}`);
  }
}

/** Each server started alone and left idle (no call, no session), ROUNDS times in a rotating order: median RSS. */
async function runIdle(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 's2sp-overhead-'));
  chmodSync(dataDir, 0o755); // the embedded server runs as another user when this runs as root
  const rss = new Map<ServerKind, number[]>(SERVER_KINDS.map((kind) => [kind, []]));
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (let turn = 0; turn < SERVER_KINDS.length; turn++) {
        const kind = SERVER_KINDS[(turn + round) % SERVER_KINDS.length];
        const server = await spawnServer(kind, 'sessions', join(dataDir, kind));
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        rss.get(kind)!.push(rssMiB(server.pid) ?? NaN);
        await server.stop();
      }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\nRSS MiB of each server started alone and left idle ${SETTLE_MS / 1000} s (the embedded PostgreSQL server of s2sp not counted)`,
  );
  const idle = (kind: ServerKind) => median(rss.get(kind)!);
  for (const kind of SERVER_KINDS) {
    const each = rss
      .get(kind)!
      .map((value) => format(value, 1))
      .join(' / ');
    console.log(
      `  ${kind.padEnd(9)} median ${format(idle(kind), 1).padStart(6)} (${format(idle(kind) / idle('mcp-nest'))}×)   rounds: ${each}`,
    );
  }
}

async function main(): Promise<void> {
  if (values.pin) pinClient();
  if (values.idle) {
    console.log(`framework overhead: Node ${process.version}, idle memory`);
    await runIdle();
    return;
  }
  console.log(
    `framework overhead: Node ${process.version}, tools/call of echo (plain) and get_rows (async on s2sp)` +
      (values.pin ? '; servers pinned to CPU 0, the client to the others' : ''),
  );
  for (const mode of MODES) await runMode(mode);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
