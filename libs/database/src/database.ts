import type { PGlite } from '@electric-sql/pglite';
import type * as AdapterPg from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as GeneratedClient from './generated/client';
import type { PrismaClient } from './generated/client';
import { logEmbeddedPostgresEvent, logEmbeddedPostgresLine } from './embedded-postgres-log';
import { startEmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres-server';
import type * as PgliteAdapter from './pglite-adapter';
import type * as InMemoryTemplate from './in-memory-template';
import { migratePostgresSchema } from './postgres-migration';
import { isPostgresUrl } from './postgres-url';
import { schemaPool } from './schema-pool';
import type * as SchemaEngine from './schema-engine';
import { pgliteSqlChannel, pgSqlChannel, type SqlChannel } from './sql-channel';

/** @public */
export type S2spDatabaseKind = 'pglite' | 'postgres';

/** @public */
export interface OpenS2spDatabaseOptions {
  /** `postgresql://` or `postgres://` selects a PostgreSQL server; anything else (or nothing) the embedded one. */
  databaseUrl?: string;
  /**
   * Without a databaseUrl: the directory of an embedded PostgreSQL server started
   * for this database and stopped by `close()` (created if missing); `':memory:'`
   * is an in-process, in-memory PGlite instead. Default `.data/s2sp`.
   */
  dataDir?: string;
  /**
   * Settings of the embedded server: timeouts, server settings, restarts after an unexpected exit,
   * log lines and restart events (warnings and errors to the Nest log by default).
   */
  embedded?: Omit<EmbeddedPostgresOptions, 'dataDir'>;
  /** Apply pending committed migrations on open. Default true. */
  migrate?: boolean;
  /**
   * PostgreSQL schema holding the S2SP tables, created if missing (lower-case
   * identifier). Defaults to the URL's `?schema=` parameter, as with Prisma URLs,
   * then `public`. Ignored for PGlite.
   */
  schema?: string;
  /** The `prisma/` folder holding the migrations; found automatically when omitted. */
  prismaDir?: string;
  /**
   * PostgreSQL: prepare each statement once per connection (see pgSqlChannel in sql-channel.ts).
   * Turn off behind a connection pooler that does not keep prepared statements per client.
   * Default true.
   */
  preparedStatements?: boolean;
  /**
   * With dataDir `':memory:'`: the directory where the migrated template that new in-memory
   * databases are loaded from is kept between processes (`false`: made once per process).
   * Default `<os tmpdir>/s2sp-pglite-templates-<uid>`; used only when owned by this user and
   * writable by no one else.
   */
  templateCacheDir?: string | false;
}

/** @public */
export interface S2spDatabase {
  client: PrismaClient;
  /** The same database through its driver, for bulk values (see sql-channel.ts). */
  sql: SqlChannel;
  kind: S2spDatabaseKind;
  /** Migrations applied while opening (empty when up to date or `migrate: false`). */
  appliedMigrations: string[];
  /** Disconnects the client and releases the PGlite instance or the pg pool, then stops an embedded server. */
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = '.data/s2sp';
export const IN_MEMORY = ':memory:';

const DEFAULT_SCHEMA = 'public';
const UNIQUE_VIOLATION = '23505';
const DUPLICATE_SCHEMA = '42P06';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export { isPostgresUrl };

/**
 * Opens the S2SP database: the PostgreSQL server of a postgres URL; else an
 * embedded PostgreSQL server in dataDir; else (dataDir ':memory:') an in-process PGlite.
 * @public
 */
export async function openS2spDatabase(options: OpenS2spDatabaseOptions = {}): Promise<S2spDatabase> {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const connection = isPostgresUrl(options.databaseUrl)
    ? await connectPostgres(options.databaseUrl, options)
    : dataDir === IN_MEMORY
      ? await inMemoryConnection(options)
      : await connectEmbeddedPostgres(dataDir, options);
  return openOn(connection, options);
}

/** A new in-memory PGlite, already migrated: it is loaded from a template (in-memory-template.ts). */
async function inMemoryConnection(options: OpenS2spDatabaseOptions): Promise<Connection> {
  const { freshInMemoryDatabase } = require('./in-memory-template') as typeof InMemoryTemplate;
  const { db, appliedMigrations } = await freshInMemoryDatabase(options);
  return { ...pgliteConnection(db), migrate: () => Promise.resolve(appliedMigrations) };
}

/**
 * Wraps a PGlite instance you created yourself (e.g. with extensions, or from a
 * `loadDataDir` dump, which starts much faster than a fresh initdb). The
 * returned database owns it: `close()` closes the PGlite too.
 */
export function openPgliteDatabase(
  db: PGlite,
  options: Pick<OpenS2spDatabaseOptions, 'migrate' | 'prismaDir'> = {},
): Promise<S2spDatabase> {
  return openOn(pgliteConnection(db), options);
}

async function openOn(
  connection: Connection,
  options: Pick<OpenS2spDatabaseOptions, 'migrate' | 'prismaDir'>,
): Promise<S2spDatabase> {
  try {
    const appliedMigrations =
      options.migrate === false ? [] : await connection.migrate({ prismaDir: options.prismaDir });
    // Prisma's client (and its runtime, several MB of code) loads on first use: the library's own
    // statements run on the driver (sql), so a resource server never loads it.
    let client: PrismaClient | undefined;
    let closing: Promise<void> | undefined;
    return {
      get client(): PrismaClient {
        if (client === undefined) {
          const { PrismaClient } = require('./generated/client') as typeof GeneratedClient;
          client = new PrismaClient({ adapter: connection.adapterFactory() });
        }
        return client;
      },
      sql: connection.sql,
      kind: connection.kind,
      appliedMigrations,
      close: () => (closing ??= (client?.$disconnect() ?? Promise.resolve()).finally(connection.release)),
    };
  } catch (error) {
    await connection.release().catch(() => undefined);
    throw error;
  }
}

interface Connection {
  kind: S2spDatabaseKind;
  /** Prisma's driver adapter, made on first use. */
  adapterFactory(): SqlMigrationAwareDriverAdapterFactory;
  sql: SqlChannel;
  /** Applies the pending migrations; returns the names applied now. */
  migrate(options: { prismaDir?: string }): Promise<string[]>;
  release(): Promise<void>;
}

function pgliteConnection(db: PGlite): Connection {
  const { createPgliteAdapterFactory } = require('./pglite-adapter') as typeof PgliteAdapter;
  const adapterFactory = createPgliteAdapterFactory(db);
  return {
    kind: 'pglite',
    adapterFactory: () => adapterFactory,
    sql: pgliteSqlChannel(db),
    migrate: (options) => (require('./schema-engine') as typeof SchemaEngine).applyMigrations(adapterFactory, options),
    release: async () => {
      if (!db.closed) await db.close();
    },
  };
}

async function connectEmbeddedPostgres(dataDir: string, options: OpenS2spDatabaseOptions): Promise<Connection> {
  const server = await startEmbeddedPostgres({
    onLog: logEmbeddedPostgresLine,
    onEvent: logEmbeddedPostgresEvent,
    ...options.embedded,
    dataDir,
  });
  try {
    const connection = await connectPostgres(server.url, options);
    return { ...connection, release: () => connection.release().finally(() => server.stop()) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function connectPostgres(
  databaseUrl: string,
  { schema: requestedSchema, preparedStatements }: Pick<OpenS2spDatabaseOptions, 'schema' | 'preparedStatements'>,
): Promise<Connection> {
  const url = new URL(databaseUrl);
  // Prisma qualifies its queries with the adapter's schema ("public" when unset), while the
  // migration SQL and the store's bulk insert name tables unqualified: pin both to one schema.
  const schema = requestedSchema ?? (url.searchParams.get('schema') || DEFAULT_SCHEMA);
  url.searchParams.delete('schema');
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use a lower-case identifier`);
  }

  const pool = schemaPool(url, schema);
  try {
    const existing = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    // Only when missing: CREATE SCHEMA needs the CREATE privilege on the database even with IF NOT EXISTS.
    if (existing.rowCount === 0)
      await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).catch(ignoreConcurrentlyCreated);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind: 'postgres',
    adapterFactory: () => new (require('@prisma/adapter-pg') as typeof AdapterPg).PrismaPg(pool, { schema }),
    sql: pgSqlChannel(pool, { preparedStatements }),
    migrate: (options) => migratePostgresSchema(url, schema, options),
    release: () => pool.end(),
  };
}

/**
 * IF NOT EXISTS does not cover a concurrent creator (several apps opening one
 * fresh database at once): the loser fails on pg_namespace's unique index.
 */
function ignoreConcurrentlyCreated(error: unknown): void {
  const code = (error as { code?: string }).code;
  if (code !== UNIQUE_VIOLATION && code !== DUPLICATE_SCHEMA) throw error;
}
