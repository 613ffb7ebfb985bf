import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface MigrationWorkerInput {
  url: string;
  schema: string;
  prismaDir?: string;
}

export type MigrationWorkerOutput =
  | { applied: string[] }
  | { failure: { name: string; message: string; code?: unknown } };

/**
 * Applies the committed migrations to a PostgreSQL schema from a worker thread.
 * The schema engine is WebAssembly that stays loaded once used (about 35 MB of
 * RSS); an app migrates once, at start, so the worker takes that memory with
 * it when it exits. Failures come back with their message, name and code.
 */
export function migratePostgresSchema(url: URL, schema: string, options: { prismaDir?: string }): Promise<string[]> {
  const input: MigrationWorkerInput = { url: url.toString(), schema, prismaDir: options.prismaDir };
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'postgres-migration.worker.js'), { workerData: input });
    let output: MigrationWorkerOutput | undefined;
    worker.once('message', (message: MigrationWorkerOutput) => (output = message));
    worker.once('error', reject);
    worker.once('exit', (exitCode) => {
      if (output === undefined) reject(new Error(`The migration worker exited (code ${exitCode}) without an answer`));
      else if ('applied' in output) resolve(output.applied);
      else reject(Object.assign(new Error(output.failure.message), { name: output.failure.name, code: output.failure.code }));
    });
  });
}
