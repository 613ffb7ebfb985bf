import * as fs from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { Pool } from 'pg';
import { PrismaClient } from './generated/client';
import { createPgliteAdapterFactory } from './pglite-adapter';
import { applyMigrations } from './schema-engine';

export type S2spDatabaseKind = 'pglite' | 'postgres';

export interface OpenS2spDatabaseOptions {
  /** `postgresql://` or `postgres://` selects a PostgreSQL server; anything else (or nothing) embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory (created if missing); `':memory:'` keeps everything in memory. Default `.data/s2sp`. */
  dataDir?: string;
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
}

export interface S2spDatabase {
  client: PrismaClient;
  kind: S2spDatabaseKind;
  /** Migrations applied while opening (empty when up to date or `migrate: false`). */
  appliedMigrations: string[];
  /** Disconnects the client and releases the PGlite instance or the pg pool. */
  close(): Promise<void>;
}

export const DEFAULT_DATA_DIR = '.data/s2sp';
export const IN_MEMORY = ':memory:';

const DEFAULT_SCHEMA = 'public';
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

/** Opens the S2SP database: PostgreSQL when given a postgres URL, embedded in-process PGlite otherwise. */
export async function openS2spDatabase(options: OpenS2spDatabaseOptions = {}): Promise<S2spDatabase> {
  const connection = isPostgresUrl(options.databaseUrl)
    ? await connectPostgres(options.databaseUrl, options.schema)
    : await connectPglite(options.dataDir ?? DEFAULT_DATA_DIR);
  return openOn(connection, options);
}

/**
 * Wraps a PGlite instance you created yourself (e.g. with extensions, or from a
 * `loadDataDir` dump, which starts much faster than a fresh initdb). The
 * returned database owns it: `close()` closes the PGlite too.
 */
export function openPgliteDatabase(db: PGlite, options: Pick<OpenS2spDatabaseOptions, 'migrate' | 'prismaDir'> = {}): Promise<S2spDatabase> {
  return openOn(pgliteConnection(db), options);
}

async function openOn(connection: Connection, options: Pick<OpenS2spDatabaseOptions, 'migrate' | 'prismaDir'>): Promise<S2spDatabase> {
  try {
    const appliedMigrations =
      options.migrate === false ? [] : await applyMigrations(connection.adapterFactory, { prismaDir: options.prismaDir });
    const client = new PrismaClient({ adapter: connection.adapterFactory });
    let closing: Promise<void> | undefined;
    return {
      client,
      kind: connection.kind,
      appliedMigrations,
      close: () => (closing ??= client.$disconnect().finally(connection.release)),
    };
  } catch (error) {
    await connection.release().catch(() => undefined);
    throw error;
  }
}

interface Connection {
  kind: S2spDatabaseKind;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  release(): Promise<void>;
}

async function connectPglite(dataDir: string): Promise<Connection> {
  if (dataDir === IN_MEMORY) return pgliteConnection(await PGlite.create());
  const directory = path.resolve(dataDir);
  await fs.promises.mkdir(directory, { recursive: true });
  return pgliteConnection(await PGlite.create(directory));
}

function pgliteConnection(db: PGlite): Connection {
  return {
    kind: 'pglite',
    adapterFactory: createPgliteAdapterFactory(db),
    release: async () => {
      if (!db.closed) await db.close();
    },
  };
}

async function connectPostgres(databaseUrl: string, requestedSchema: string | undefined): Promise<Connection> {
  const url = new URL(databaseUrl);
  // Prisma qualifies its queries with the adapter's schema ("public" when unset), while the
  // migration SQL and the store's bulk insert name tables unqualified: pin both to one schema.
  const schema = requestedSchema ?? (url.searchParams.get('schema') || DEFAULT_SCHEMA);
  url.searchParams.delete('schema');
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use a lower-case identifier`);
  }

  // On every pooled connection: the schema engine and the pg adapter may use any of them.
  const pool = new Pool({ connectionString: url.toString(), options: `-c search_path=${schema}` });
  pool.on('error', () => undefined); // an idle client dying (server restart) must not crash the process
  try {
    const existing = await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    // Only when missing: CREATE SCHEMA needs the CREATE privilege on the database even with IF NOT EXISTS.
    if (existing.rowCount === 0) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind: 'postgres',
    adapterFactory: new PrismaPg(pool, { schema }),
    release: () => pool.end(),
  };
}
