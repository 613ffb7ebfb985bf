import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openS2spDatabase, type S2spDatabase } from '../../libs/database/src/database';
import { resolvePrismaPaths } from '../../libs/database/src/prisma-paths';
import { Client } from 'pg';
import { openPostgresTestDatabase, postgresSkipReason, postgresTestUrl } from '../support/databases';

const { migrationsDir } = resolvePrismaPaths();
const committed = fs
  .readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

async function tableNames(db: S2spDatabase): Promise<string[]> {
  const rows = await db.client.$queryRaw<{ table_name: string }[]>`
    SELECT table_name::text AS table_name FROM information_schema.tables
    WHERE table_schema = current_schema() ORDER BY table_name`;
  return rows.map((row) => row.table_name);
}

async function assertMigrationsRecorded(db: S2spDatabase): Promise<void> {
  const recorded = await db.client.$queryRaw<
    { migration_name: string; checksum: string; finished: boolean; rolled_back: boolean }[]
  >`
    SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
    FROM _prisma_migrations ORDER BY migration_name`;
  assert.deepEqual(
    recorded.map((row) => row.migration_name),
    committed,
  );
  for (const row of recorded) {
    const sql = fs.readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
    assert.equal(row.checksum, createHash('sha256').update(sql).digest('hex'), `checksum of ${row.migration_name}`);
    assert.equal(row.finished, true);
    assert.equal(row.rolled_back, false);
  }
}

describe('committed migrations', () => {
  test('exist, with the lock file of a postgresql history', () => {
    assert.ok(committed.length >= 1);
    assert.match(
      fs.readFileSync(path.join(migrationsDir, 'migration_lock.toml'), 'utf8'),
      /^provider = "postgresql"$/m,
    );
  });

  test('apply to a fresh in-memory PGlite and are recorded like prisma migrate deploy', async () => {
    const db = await openS2spDatabase({ dataDir: ':memory:' });
    try {
      assert.equal(db.kind, 'pglite');
      assert.deepEqual(db.appliedMigrations, committed);
      assert.deepEqual(await tableNames(db), [
        '_prisma_migrations',
        'agent_task',
        'agent_task_step',
        'idempotency_record',
        's2sp_audit_event',
        's2sp_data_fetch',
        's2sp_resource',
        's2sp_resource_chunk',
      ]);
      await assertMigrationsRecorded(db);
      assert.equal(await db.client.s2spResource.count(), 0);
    } finally {
      await db.close();
    }
  });

  test('every in-memory database of a process is its own, migrated and empty, though later ones load a template', async () => {
    const [first, second] = await Promise.all([
      openS2spDatabase({ dataDir: ':memory:' }),
      openS2spDatabase({ dataDir: ':memory:' }),
    ]);
    try {
      await first.client.idempotencyRecord.create({
        data: {
          keyHash: 'a'.repeat(64),
          method: 'tools.call',
          requestHash: 'b'.repeat(64),
          state: 'IN_PROGRESS',
          expiresAt: new Date(Date.now() + 60_000),
        },
      });
      const third = await openS2spDatabase({ dataDir: ':memory:' });
      try {
        for (const db of [first, second, third]) {
          assert.deepEqual(db.appliedMigrations, committed);
          await assertMigrationsRecorded(db);
        }
        assert.equal(await first.client.idempotencyRecord.count(), 1);
        assert.equal(await second.client.idempotencyRecord.count(), 0);
        assert.equal(await third.client.idempotencyRecord.count(), 0);
      } finally {
        await third.close();
      }
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('apply to a fresh embedded PostgreSQL data dir (created if missing) exactly once', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 's2sp-migrations-'));
    fs.chmodSync(parent, 0o755); // reachable by the server's OS user when the tests run as root
    const dataDir = path.join(parent, 'nested', 'pgdata');
    try {
      const first = await openS2spDatabase({ dataDir });
      try {
        assert.equal(first.kind, 'postgres');
        assert.deepEqual(first.appliedMigrations, committed);
      } finally {
        await first.close();
      }
      const second = await openS2spDatabase({ dataDir });
      try {
        assert.deepEqual(second.appliedMigrations, []);
        await assertMigrationsRecorded(second);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('are not applied with migrate: false', async () => {
    const db = await openS2spDatabase({ dataDir: ':memory:', migrate: false });
    try {
      assert.deepEqual(db.appliedMigrations, []);
      assert.deepEqual(await tableNames(db), []);
    } finally {
      await db.close();
    }
  });

  test('apply to a fresh PostgreSQL schema exactly once', async (t) => {
    const db = await openPostgresTestDatabase();
    if (!db) {
      t.skip(await postgresSkipReason());
      return;
    }
    try {
      assert.equal(db.kind, 'postgres');
      assert.deepEqual(db.appliedMigrations, committed);
      assert.deepEqual(await tableNames(db), [
        '_prisma_migrations',
        'agent_task',
        'agent_task_step',
        'idempotency_record',
        's2sp_audit_event',
        's2sp_data_fetch',
        's2sp_resource',
        's2sp_resource_chunk',
      ]);
      const [{ schema }] = await db.client.$queryRaw<{ schema: string }[]>`SELECT current_schema()::text AS schema`;
      assert.equal(schema, db.schema);
      await assertMigrationsRecorded(db);

      const again = await openS2spDatabase({ databaseUrl: postgresTestUrl(), schema: db.schema });
      try {
        assert.deepEqual(again.appliedMigrations, []);
      } finally {
        await again.close();
      }
    } finally {
      await db.close();
    }
  });

  // Issue 18, point 11: the schema engine's session-level advisory lock stayed held on
  // a connection of the app's pool, and every later migrator of the database timed out.
  test('apply once when several processes open one fresh PostgreSQL schema at once, and leave no advisory lock held', async (t) => {
    const db = await openPostgresTestDatabase();
    if (!db) {
      t.skip(await postgresSkipReason());
      return;
    }
    const schema = `${db.schema}_concurrent`;
    try {
      const opened = await Promise.all(
        Array.from({ length: 4 }, () => openS2spDatabase({ databaseUrl: postgresTestUrl(), schema })),
      );
      try {
        const applied = opened.map((each) => each.appliedMigrations);
        assert.deepEqual(
          applied.filter((names) => names.length > 0),
          [committed],
          'one opener applied every migration, the others none',
        );
        const admin = new Client({ connectionString: postgresTestUrl() });
        await admin.connect();
        try {
          // Only S2SP sessions: other clients of this shared server may be migrating right now.
          const locks = await admin.query(
            `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.objid = 72707369 AND l.granted AND a.application_name = 's2sp'`,
          );
          assert.equal(locks.rowCount, 0, 'the migration lock was released with its connection');
        } finally {
          await admin.end();
        }
        // The databases stay usable after the migration pool is gone.
        for (const each of opened) assert.equal(await each.client.s2spResource.count(), 0);
      } finally {
        await Promise.all(opened.map((each) => each.close()));
      }
    } finally {
      await db.client.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.close();
    }
  });
});
