import { fork } from 'node:child_process';
import { join } from 'node:path';

export interface MigrationWorkerInput {
  url: string;
  schema: string;
  prismaDir?: string;
}

export type MigrationWorkerOutput =
  { applied: string[] } | { failure: { name: string; message: string; code?: unknown } };

/**
 * Applies the committed migrations to a PostgreSQL schema from a child
 * process. The schema engine is WebAssembly that stays loaded once used; run
 * in a worker thread it left about 20 MiB more resident in this process after
 * the worker ended (the allocator keeps a thread's freed memory), and raised
 * the peak by 50–70 MiB while it ran (docs/data-plane-memory.md). The URL goes
 * over the IPC channel, never on a command line. Failures come back with their
 * message, name and code.
 */
export function migratePostgresSchema(url: URL, schema: string, options: { prismaDir?: string }): Promise<string[]> {
  const input: MigrationWorkerInput = { url: url.toString(), schema, prismaDir: options.prismaDir };
  return new Promise((resolve, reject) => {
    // No inherited flags (e.g. a large --max-old-space-size or --inspect): the migration needs none.
    const child = fork(join(__dirname, 'postgres-migration.worker.js'), [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let output: MigrationWorkerOutput | undefined;
    child.once('message', (message: MigrationWorkerOutput) => (output = message));
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => {
      if (output === undefined)
        reject(new Error(`The migration process exited (${signal ?? `code ${exitCode}`}) without an answer`));
      else if ('applied' in output) resolve(output.applied);
      else
        reject(
          Object.assign(new Error(output.failure.message), { name: output.failure.name, code: output.failure.code }),
        );
    });
    child.send(input);
  });
}
