// `npm run db:migrate` is `node dist/scripts/migrate.js` after the build: these tests run
// that compiled script in a child process, as the npm script does.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { resolvePrismaPaths } from '../../libs/database/src/prisma-paths';
import { postgresOrSkip, postgresTestUrl } from '../support/databases';
import { tempDir } from '../support/temp-dir';

const migrateScript = join(__dirname, '..', '..', 'scripts', 'migrate.js');
const committed = readdirSync(resolvePrismaPaths().migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Runs the script with only `env` deciding the database (DATABASE_URL and S2SP_DATA_DIR of the test run are dropped). */
async function runMigrate(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { DATABASE_URL: _url, S2SP_DATA_DIR: _dir, ...inherited } = process.env;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [migrateScript], {
    cwd,
    env: { ...inherited, ...env },
    timeout: 120_000,
  });
  return `${stdout}${stderr}`;
}

describe('npm run db:migrate (dist/scripts/migrate.js)', () => {
  test('without DATABASE_URL migrates a fresh embedded PostgreSQL in .data/s2sp (or S2SP_DATA_DIR), then finds it up to date', async () => {
    const cwd = tempDir('s2sp-migrate-embedded-');
    chmodSync(cwd.path, 0o755); // the server's OS user must reach the data dir when tests run as root
    try {
      const first = await runMigrate(cwd.path);
      assert.match(
        first,
        new RegExp(
          `migrate: applied ${committed.length} migration\\(s\\) to embedded PostgreSQL in \\.data/s2sp: ${committed.join(', ')}`,
        ),
      );
      assert.ok(
        existsSync(join(cwd.path, '.data', 's2sp', 'postgres', 'PG_VERSION')),
        'the cluster is in <cwd>/.data/s2sp/postgres',
      );
      assert.match(await runMigrate(cwd.path), /migrate: embedded PostgreSQL in \.data\/s2sp is up to date/);
      // The same cluster named by S2SP_DATA_DIR: found, and already migrated.
      const dataDir = join(cwd.path, '.data', 's2sp');
      assert.match(
        await runMigrate(cwd.path, { S2SP_DATA_DIR: dataDir }),
        new RegExp(`migrate: embedded PostgreSQL in ${dataDir} is up to date`),
      );
    } finally {
      cwd.remove();
    }
  });

  test('with DATABASE_URL migrates that PostgreSQL database (its ?schema=), never printing the URL', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const schema = `s2sp_migrate_${randomBytes(5).toString('hex')}`;
    const url = new URL(postgresTestUrl());
    url.searchParams.set('schema', schema);
    const cwd = tempDir('s2sp-migrate-pg-');
    const admin = new Client({ connectionString: postgresTestUrl() });
    await admin.connect();
    try {
      const first = await runMigrate(cwd.path, { DATABASE_URL: url.toString() });
      assert.match(
        first,
        new RegExp(
          `migrate: applied ${committed.length} migration\\(s\\) to PostgreSQL \\(DATABASE_URL\\): ${committed.join(', ')}`,
        ),
      );
      assert.ok(!first.includes(url.host), 'the URL (which may hold a password) is not printed');
      const recorded = await admin.query<{ migration_name: string }>(
        `SELECT migration_name FROM "${schema}"._prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1`,
      );
      assert.deepEqual(
        recorded.rows.map((row) => row.migration_name),
        committed,
        'recorded in the schema the URL names',
      );
      const tables = await admin.query<{ table_name: string }>(
        `SELECT table_name::text FROM information_schema.tables WHERE table_schema = $1`,
        [schema],
      );
      assert.ok(tables.rows.some((row) => row.table_name === 's2sp_resource'));
      assert.match(
        await runMigrate(cwd.path, { DATABASE_URL: url.toString() }),
        /migrate: PostgreSQL \(DATABASE_URL\) is up to date/,
      );
      assert.equal(existsSync(join(cwd.path, '.data')), false, 'no embedded server was started');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => admin.end());
      cwd.remove();
    }
  });
});
