// Upgrading keeps data: a database made by the last released version (its migrations, then one row
// of every table as it wrote them: prisma/releases/) is upgraded to the current schema, and the
// current code reads every row back. On the embedded server's own data directory, as `npm start`
// leaves it, and on a real PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from 'pg';
import { TaskRepository } from '../../libs/agents/src/tasks/task-repository';
import { openS2spDatabase, type OpenS2spDatabaseOptions, type S2spDatabase } from '../../libs/database/src/database';
import { PrismaIdempotencyStore } from '../../libs/gateway/src/idempotency/prisma-idempotency-store';
import { hashResourceToken } from '../../libs/s2sp/src/protocol/resource-token';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { postgresAvailability, postgresRequired, postgresTestUrl } from '../support/databases';
import { REPO_ROOT } from '../support/packed-apps';
import { tempDir } from '../support/temp-dir';

const PRISMA_DIR = join(REPO_ROOT, 'prisma');
const RELEASES_DIR = join(PRISMA_DIR, 'releases');

interface ReleasedSchema {
  version: string;
  lastMigration: string;
  postgresMajor: number;
}

const released = JSON.parse(readFileSync(join(RELEASES_DIR, 'released-schema.json'), 'utf8')) as ReleasedSchema;
const allMigrations = readdirSync(join(PRISMA_DIR, 'migrations'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const releasedMigrations = allMigrations.filter((name) => name <= released.lastMigration);

/** A prisma folder holding the released migrations only. */
function releasedPrismaDir(dir: string): string {
  const prismaDir = join(dir, 'released-prisma');
  mkdirSync(join(prismaDir, 'migrations'), { recursive: true });
  cpSync(join(PRISMA_DIR, 'schema.prisma'), join(prismaDir, 'schema.prisma'));
  cpSync(join(PRISMA_DIR, 'migrations', 'migration_lock.toml'), join(prismaDir, 'migrations', 'migration_lock.toml'));
  for (const name of releasedMigrations)
    cpSync(join(PRISMA_DIR, 'migrations', name), join(prismaDir, 'migrations', name), { recursive: true });
  return prismaDir;
}

/** The statements of released-data.sql, one at a time (the driver runs one statement per query). */
function releasedDataStatements(): string[] {
  return readFileSync(join(RELEASES_DIR, 'released-data.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

/** Makes the released database, upgrades it, and reads every row back with the current code. */
async function upgradeAndReadBack(open: (options: Partial<OpenS2spDatabaseOptions>) => Promise<S2spDatabase>) {
  const dir = tempDir('s2sp-upgrade-');
  chmodSync(dir.path, 0o755); // the embedded server runs as another user when this runs as root
  try {
    const old = await open({ prismaDir: releasedPrismaDir(dir.path), dataDir: join(dir.path, 'data') });
    try {
      assert.deepEqual(old.appliedMigrations, releasedMigrations, 'the released schema, from scratch');
      for (const statement of releasedDataStatements()) await old.sql.query(statement);
    } finally {
      await old.close();
    }

    const current = await open({ dataDir: join(dir.path, 'data') });
    try {
      assert.deepEqual(
        current.appliedMigrations,
        allMigrations.filter((name) => name > released.lastMigration),
        'the upgrade applies what came after the release',
      );
      await readBack(current);
    } finally {
      await current.close();
    }
  } finally {
    dir.remove();
  }
}

async function readBack(db: S2spDatabase): Promise<void> {
  const resources = new PrismaResourceStore(db);
  const tokenHash = hashResourceToken('releasedResourceToken_0123456789abcdefghijk');
  const claimed = await resources.claim(tokenHash);
  assert.equal(claimed?.info.toolName, 'get_alerts');
  assert.deepEqual(claimed?.info.abstractDomains, ['event', 'severity']);
  assert.equal(claimed?.info.consumer, 'stats');
  assert.deepEqual(claimed?.table.rows, [
    { event: 'Wind Advisory', severity: 'Moderate', area: 'CA', description: 'Gusts to 50 mph.' },
    { event: 'Flood Watch', severity: 'Severe', area: 'CA', description: "Heavy rain; it's wet." },
  ]);
  assert.equal(await resources.claim(tokenHash), null, 'still single-use');

  const task = await new TaskRepository(db).load('8e2f4a10-7c3b-4d2e-b1a9-0c5d6e7f8a92');
  assert.equal(task?.status, 'SUCCEEDED');
  assert.equal(task?.caller, 'alice');
  assert.deepEqual(task?.result, { chart: 'wind.svg' });
  assert.equal(task?.steps.length, 1);
  assert.equal(task?.usage.tokens_kept_out, 480);
  assert.equal(task?.completedAtMs, Date.parse('2026-11-27T10:00:02.000Z'));

  const idempotent = await new PrismaIdempotencyStore(db).find(
    '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
  );
  assert.equal(idempotent?.state, 'COMPLETED');
  assert.deepEqual(idempotent?.result, { task_id: '8e2f4a10-7c3b-4d2e-b1a9-0c5d6e7f8a92' });

  const audit = await db.client.auditEvent.findUniqueOrThrow({ where: { id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f' } });
  assert.equal(audit.decision, 'allow');
  assert.equal(audit.subject, 'alice');
  assert.deepEqual(audit.delegatedBy, ['gateway']);
  const fetch = await db.client.dataPlaneFetch.findUniqueOrThrow({
    where: { id: 'd4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70' },
  });
  assert.equal(fetch.result, 'served');
  assert.equal(fetch.rows, 2);
}

describe(`upgrading from the released schema (${released.version}, up to ${released.lastMigration})`, () => {
  test("the embedded server's data directory of the release starts on this version's PostgreSQL, upgrades, and keeps every row", async () => {
    let clusterMajor: string | undefined;
    await upgradeAndReadBack(async (options) => {
      const db = await openS2spDatabase({ ...options, embedded: { restart: false } });
      clusterMajor ??= readFileSync(join(options.dataDir!, 'postgres', 'PG_VERSION'), 'utf8').trim();
      return db;
    });
    assert.equal(
      clusterMajor,
      String(released.postgresMajor),
      'a data directory of the release needs the same PostgreSQL major version (pg_upgrade otherwise)',
    );
  });

  test('a PostgreSQL schema of the release upgrades and keeps every row', async (t) => {
    const availability = await postgresAvailability();
    if (!availability.available) {
      if (postgresRequired()) assert.fail(availability.reason);
      t.skip(availability.reason);
      return;
    }
    const schema = `upgrade_${randomBytes(6).toString('hex')}`;
    try {
      await upgradeAndReadBack(({ prismaDir }) =>
        openS2spDatabase({ databaseUrl: postgresTestUrl(), schema, prismaDir }),
      );
    } finally {
      const client = new Client({ connectionString: postgresTestUrl() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });
});
