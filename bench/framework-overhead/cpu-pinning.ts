// --pin for the framework-overhead benchmark: every server (and each process it starts, such as the
// embedded PostgreSQL server) on CPU 0, the benchmark's client on the others, through `taskset`
// (util-linux). Unpinned on a 2-core machine the client, the server and its database share both
// cores as the scheduler likes; pinned, a server never competes with the client for a core and its
// database runs on the server's core, like a server given one core of its own. It removes the
// scheduler's part of the spread between runs, not a busy host's (bench/framework-overhead/README.md).
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The CPU the servers run on when pinned. */
const SERVER_CPU = '0';

/** Pins this process (all its threads) to every CPU but the servers'; throws when that cannot be done. */
export function pinClient(): void {
  const cpus = availableParallelism();
  if (cpus < 2) throw new Error('--pin needs at least 2 CPUs: one for the servers, the others for the client.');
  try {
    execFileSync('taskset', ['-a', '-cp', `1-${cpus - 1}`, String(process.pid)], { stdio: 'ignore' });
  } catch (error) {
    throw new Error(`--pin needs taskset (util-linux): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The command and arguments that start `command args` on the servers' CPU. */
export function onServerCpu(command: string, args: readonly string[]): [string, string[]] {
  return ['taskset', ['-c', SERVER_CPU, command, ...args]];
}
