/**
 * Idle memory of `npm start`: starts the whole stack (dist/scripts/start-all.js,
 * or the one given, e.g. another checkout's build) on free ports in a fresh
 * temp directory, waits until it is ready and then --idle seconds, and prints
 * each process's RSS; for an embedded PostgreSQL server, the PSS of all its
 * processes (their shared buffers counted once) and the sum of their RSS.
 *
 *   npm run build && node dist/bench/memory/stack-memory.js [--idle 15] [--start-all path/to/start-all.js]
 */
import { chmodSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startStack } from '../../test/support/start-all';
import { tempDir } from '../../test/support/stack';
import { descendants, rssMiB, treePssMiB } from '../soak/process-memory';
import { appNameOf, commandLine } from './stack-processes';

const { values } = parseArgs({ options: { idle: { type: 'string', default: '15' }, 'start-all': { type: 'string' } } });
const idleSeconds = Number(values.idle);
if (!Number.isFinite(idleSeconds) || idleSeconds < 0) throw new Error('--idle must be a number of seconds');

async function main(): Promise<void> {
  const cwd = tempDir('s2sp-memory-');
  chmodSync(cwd.path, 0o755); // the embedded server runs as another user when this runs as root
  const stack = await startStack({ cwd: cwd.path, timeoutMs: 300_000, script: values['start-all'] }).catch(
    (error: unknown) => {
      cwd.remove();
      throw error;
    },
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    console.log(`idle ${idleSeconds} s after ready                    RSS MiB`);
    console.log(`  start-all                             ${rssMiB(stack.pid)?.toFixed(1)}`);
    for (const pid of descendants(stack.pid)) {
      const command = commandLine(pid);
      const app = appNameOf(pid);
      if (app) console.log(`  ${app.padEnd(38)}${rssMiB(pid)?.toFixed(1)}`);
      if (/\/postgres -D /.test(command)) {
        const server = [pid, ...descendants(pid)];
        const rssSum = server.reduce((sum, each) => sum + (rssMiB(each) ?? 0), 0);
        console.log(
          `  postgres (${server.length} processes)  PSS ${treePssMiB(pid).toFixed(1)}, RSS sum ${rssSum.toFixed(1)}`,
        );
      }
    }
  } finally {
    await stack.stop();
    cwd.remove();
  }
}

main().catch((error: unknown) => {
  console.error('stack-memory failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
