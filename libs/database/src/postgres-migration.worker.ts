/**
 * Worker thread body of postgres-migration.ts: applies the committed migrations
 * to one PostgreSQL schema and posts the names applied (or the failure) back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PrismaPg } from '@prisma/adapter-pg';
import { applyMigrations } from './schema-engine';
import { schemaPool } from './schema-pool';
import type { MigrationWorkerInput, MigrationWorkerOutput } from './postgres-migration';

async function migrate({ url, schema, prismaDir }: MigrationWorkerInput): Promise<string[]> {
  // A pool of its own, closed when the migration ends: the schema engine's session-level
  // advisory lock goes with its sessions (on a shared pool it stayed held, and every later
  // migrator of the database timed out).
  const pool = schemaPool(new URL(url), schema);
  try {
    return await applyMigrations(new PrismaPg(pool, { schema }), { prismaDir });
  } finally {
    await pool.end();
  }
}

function post(output: MigrationWorkerOutput): void {
  parentPort!.postMessage(output);
}

migrate(workerData as MigrationWorkerInput).then(
  (applied) => post({ applied }),
  (error: unknown) =>
    post({
      failure: {
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
        code: (error as { code?: unknown }).code,
      },
    }),
);
