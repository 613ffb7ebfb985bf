/**
 * Child process body of postgres-migration.ts: receives one input over IPC,
 * applies the committed migrations to that PostgreSQL schema, sends the names
 * applied (or the failure) back and exits.
 */
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

function reply(output: MigrationWorkerOutput): void {
  // Exit once the answer is out: the pool is closed, nothing else keeps this process.
  process.send!(output, () => process.disconnect());
}

process.once('message', (input: MigrationWorkerInput) => {
  migrate(input).then(
    (applied) => reply({ applied }),
    (error: unknown) =>
      reply({
        failure: {
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
          code: (error as { code?: unknown }).code,
        },
      }),
  );
});
