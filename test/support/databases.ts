// Test databases for the S2SP persistence layer: in-memory PGlite (always
// available) and a throw-away schema on the real PostgreSQL (opt-in by env).
import { randomBytes } from 'node:crypto';
import { after, before, type TestContext } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { openPgliteDatabase, openS2spDatabase, type S2spDatabase } from '../../libs/database/src/database';
import { createPgliteAdapterFactory } from '../../libs/database/src/pglite-adapter';
import { applyMigrations } from '../../libs/database/src/schema-engine';

export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export function postgresTestUrl(): string {
  return process.env.S2SP_TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
}

/** With S2SP_REQUIRE_POSTGRES=1 an unreachable PostgreSQL fails the tests instead of skipping them. */
export function postgresRequired(): boolean {
  return process.env.S2SP_REQUIRE_POSTGRES === '1';
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A fresh, migrated in-memory PGlite. Starting PGlite from scratch (initdb)
 * takes seconds, so the first call migrates one instance and dumps it; later
 * calls start from that dump. Use `openS2spDatabase` directly to test a truly
 * fresh database.
 */
export async function openPgliteTestDatabase(): Promise<S2spDatabase> {
  pgliteTemplate ??= (async () => {
    const db = await PGlite.create();
    try {
      await applyMigrations(createPgliteAdapterFactory(db));
      return await db.dumpDataDir('none');
    } finally {
      await db.close();
    }
  })();
  const db = await PGlite.create({ loadDataDir: await pgliteTemplate });
  return openPgliteDatabase(db, { migrate: false });
}

export type PostgresAvailability = { available: true } | { available: false; reason: string };

let availability: Promise<PostgresAvailability> | undefined;

/** Whether the test PostgreSQL answers (checked once per process). */
export function postgresAvailability(): Promise<PostgresAvailability> {
  availability ??= (async () => {
    const client = new Client({ connectionString: postgresTestUrl(), connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return { available: true } as const;
    } catch (error) {
      const detail = error instanceof Error ? error.message || error.name : String(error);
      return {
        available: false,
        reason: `PostgreSQL not reachable at ${redact(postgresTestUrl())} (${detail})`,
      } as const;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return availability;
}

export interface PostgresTestDatabase extends S2spDatabase {
  /** The random schema this database lives in; dropped by `close()`. */
  schema: string;
}

/**
 * A migrated database in a new random schema of the test PostgreSQL, or null
 * when PostgreSQL is unreachable (callers skip with `skipReason`). Throws
 * instead when S2SP_REQUIRE_POSTGRES=1. `close()` drops the schema.
 */
export async function openPostgresTestDatabase(): Promise<PostgresTestDatabase | null> {
  const status = await postgresAvailability();
  if (!status.available) {
    if (postgresRequired()) throw new Error(`S2SP_REQUIRE_POSTGRES=1 but ${status.reason}`);
    return null;
  }
  const schema = `s2sp_test_${randomBytes(6).toString('hex')}`;
  const db = await openS2spDatabase({ databaseUrl: postgresTestUrl(), schema, migrate: true });
  return {
    ...db,
    schema,
    close: async () => {
      try {
        await db.client.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await db.close();
      }
    },
  };
}

/** Runs `work` on a client of the test PostgreSQL's own database (CREATE / DROP DATABASE), closed afterwards. */
export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: postgresTestUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * For a test that needs the test PostgreSQL: true when it answers; otherwise the test is
 * skipped saying why (false), or fails when S2SP_REQUIRE_POSTGRES=1 (as on CI).
 */
export async function postgresOrSkip(t: { skip(message?: string): void }): Promise<boolean> {
  const status = await postgresAvailability();
  if (status.available) return true;
  if (postgresRequired()) throw new Error(`S2SP_REQUIRE_POSTGRES=1 but ${status.reason}`);
  t.skip(await postgresSkipReason());
  return false;
}

/** Why PostgreSQL tests are skipped (only meaningful when openPostgresTestDatabase returned null). */
export async function postgresSkipReason(): Promise<string> {
  const status = await postgresAvailability();
  return status.available ? '' : `${status.reason}; set S2SP_REQUIRE_POSTGRES=1 to make this a failure`;
}

export type TestDatabaseKind = 'pglite' | 'postgres';

/** Opens a test database of the given kind; null means "skip" (PostgreSQL unreachable and not required). */
export function openTestDatabase(kind: TestDatabaseKind): Promise<S2spDatabase | null> {
  return kind === 'pglite' ? openPgliteTestDatabase() : openPostgresTestDatabase();
}

export interface SuiteDatabase {
  /** The database, or undefined after marking the test skipped (PostgreSQL unreachable and not required). */
  get(t: TestContext): S2spDatabase | undefined;
}

/**
 * Opens one database of `kind` for the enclosing `describe` (before/after
 * hooks) and hands it to its tests. Call at the top of a describe callback.
 */
export function useSuiteDatabase(kind: TestDatabaseKind): SuiteDatabase {
  let db: S2spDatabase | null = null;
  let skipReason = '';
  before(async () => {
    db = await openTestDatabase(kind);
    if (!db) skipReason = await postgresSkipReason();
  });
  after(async () => {
    await db?.close();
  });
  return {
    get(t) {
      if (db) return db;
      t.skip(skipReason || 'database was not opened');
      return undefined;
    },
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<invalid url>';
  }
}
