/**
 * Memory of `npm start`: starts the whole stack (dist/scripts/start-all.js, or the one given,
 * e.g. another checkout's build) on free ports in a fresh temp directory, waits until it is ready
 * and then --idle seconds, runs the README's task once through the gateway, and prints each
 * process's RSS three times: --idle seconds after ready, right after the task, and --settle
 * seconds after it (V8 gives memory back some tens of seconds after the last busy moment, so an
 * app a user looks at a minute later is smaller than one just started). For the embedded
 * PostgreSQL server: the PSS of all its processes (their shared buffers counted once) and the sum
 * of their RSS.
 *
 *   npm run build && node dist/bench/memory/stack-memory.js [--idle 15] [--settle 60] [--start-all path/to/start-all.js]
 */
import { parseArgs } from 'node:util';
import { descendants, rssMiB, treePssMiB } from '../soak/process-memory';
import { startBenchStack } from '../startup/bench-stack';
import { runReadmeTask } from '../startup/run-readme-task';
import { appNameOf, commandLine } from './stack-processes';

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '15' },
    settle: { type: 'string', default: '60' },
    'start-all': { type: 'string' },
  },
});
const idleSeconds = seconds('idle');
const settleSeconds = seconds('settle');

function seconds(option: 'idle' | 'settle'): number {
  const value = Number(values[option]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${option} must be a number of seconds`);
  return value;
}

/** One line per process of the stack: its name and what it holds now. */
function snapshot(stackPid: number): Map<string, string> {
  const lines = new Map<string, string>([['start-all', rssMiB(stackPid)?.toFixed(1) ?? '-']]);
  for (const pid of descendants(stackPid)) {
    const app = appNameOf(pid);
    if (app) lines.set(app, rssMiB(pid)?.toFixed(1) ?? '-');
    if (/\/postgres -D /.test(commandLine(pid))) {
      const server = [pid, ...descendants(pid)];
      const rssSum = server.reduce((sum, each) => sum + (rssMiB(each) ?? 0), 0);
      lines.set(
        'postgres (processes: PSS / RSS sum)',
        `${server.length}: ${treePssMiB(pid).toFixed(1)} / ${rssSum.toFixed(1)}`,
      );
    }
  }
  return lines;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const stack = await startBenchStack('s2sp-memory-', values['start-all']);
  try {
    await sleep(idleSeconds * 1000);
    const started = snapshot(stack.pid);
    const { task } = await runReadmeTask(stack.gatewayUrl);
    if (task.status !== 'succeeded') throw new Error(`the README task ended ${task.status}`);
    const afterTask = snapshot(stack.pid);
    await sleep(settleSeconds * 1000);
    const settled = snapshot(stack.pid);
    const columns = [`${idleSeconds} s after ready`, 'after the task', `${settleSeconds} s later`];
    console.log(`RSS MiB${' '.repeat(41)}${columns.map((column) => column.padStart(18)).join('')}`);
    for (const [name, figure] of started) {
      const row = [figure, afterTask.get(name) ?? '-', settled.get(name) ?? '-'];
      console.log(`  ${name.padEnd(46)}${row.map((each) => each.padStart(18)).join('')}`);
    }
  } finally {
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error('stack-memory failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
