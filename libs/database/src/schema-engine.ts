import * as fs from 'node:fs';
import * as path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type * as SchemaEngineWasm from '@prisma/schema-engine-wasm/schema_engine_bg';
import { migrationSlug, readMigrationsList, writeMigration, type CreatedMigration } from './migration-directory';
import { createPgliteAdapterFactory } from './pglite-adapter';
import { resolvePrismaPaths, type PrismaPaths } from './prisma-paths';

export type { CreatedMigration };

// Prisma's schema engine (migrations, diffs) compiled to WebAssembly. The
// native binary cannot be downloaded in our environments; this one ships in
// @prisma/schema-engine-wasm and talks to the database through a driver adapter.
//
// The package imports its .wasm file the bundler way, so it is instantiated by
// hand. The wasm-bindgen glue keeps the instance in module state: load once.

type SchemaEngine = SchemaEngineWasm.SchemaEngine;

export interface SchemaEngineOptions {
  /** The `prisma/` folder; found automatically when omitted (see resolvePrismaPaths). */
  prismaDir?: string;
  /** Receives the engine's log lines (JSON strings). Silent by default. */
  log?: (line: string) => void;
}

const NO_FILTERS: SchemaEngineWasm.SchemaFilter = { externalTables: [], externalEnums: [] };

let wasmModule: Promise<typeof SchemaEngineWasm> | undefined;

/** Loads and instantiates the wasm schema engine module once per process. */
export function loadSchemaEngineWasm(): Promise<typeof SchemaEngineWasm> {
  wasmModule ??= (async () => {
    const bg: typeof SchemaEngineWasm = require('@prisma/schema-engine-wasm/schema_engine_bg');
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await fs.promises.readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await webAssembly().instantiate(bytes, { './schema_engine_bg.js': withTrackedTimers(bg) });
    const exports = instance.exports as { __wbindgen_start?: () => void };
    bg.__wbg_set_wasm(exports);
    exports.__wbindgen_start?.();
    return bg;
  })();
  wasmModule.catch(() => {
    wasmModule = undefined;
  });
  return wasmModule;
}

// Our tsconfig has no DOM lib, and @types/node 20 does not declare the WebAssembly global.
interface WebAssemblyApi {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ instance: { exports: object } }>;
}

function webAssembly(): WebAssemblyApi {
  return (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
}

// The engine arms 10 s timeouts (setTimeout through the glue) and never clears
// them, which kept every process that migrated alive for 10 s after its work.
// Timers armed by the engine are tracked and cleared once no engine call is in flight.
const engineTimers = new Set<NodeJS.Timeout>();
let engineCallsInFlight = 0;

function withTrackedTimers(bg: typeof SchemaEngineWasm): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...bg };
  for (const name of Object.keys(imports)) {
    if (!name.startsWith('__wbg_setTimeout_')) continue;
    imports[name] = (callback: () => void, delay: number): NodeJS.Timeout => {
      const timer = setTimeout(() => {
        engineTimers.delete(timer);
        callback();
      }, delay >>> 0);
      engineTimers.add(timer);
      return timer;
    };
  }
  return imports;
}

async function trackEngineCall<T>(call: () => Promise<T>): Promise<T> {
  engineCallsInFlight += 1;
  try {
    return await call();
  } finally {
    engineCallsInFlight -= 1;
    if (engineCallsInFlight === 0) {
      for (const timer of engineTimers) clearTimeout(timer);
      engineTimers.clear();
    }
  }
}

/** Runs `work` with a schema engine bound to `adapterFactory` and the current schema, then frees it. */
async function withEngine<T>(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  paths: PrismaPaths,
  options: SchemaEngineOptions,
  work: (engine: SchemaEngine, schema: SchemaEngineWasm.SchemaContainer) => Promise<T>,
): Promise<T> {
  const bg = await loadSchemaEngineWasm();
  const schema = { path: paths.schemaPath, content: await fs.promises.readFile(paths.schemaPath, 'utf8') };
  const log = options.log ?? (() => undefined);
  return trackEngineCall(async () => {
    // The engine calls the factory's methods detached from it; the binding wrapper fixes `this`
    // and carries JS errors back across the wasm boundary.
    const engine = await bg.SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      log,
      bindMigrationAwareSqlAdapterFactory(adapterFactory),
    );
    try {
      return await work(engine, schema);
    } finally {
      engine.free();
    }
  });
}

/**
 * Applies the committed migrations that the database has not seen yet, recording
 * them in `_prisma_migrations` exactly like `prisma migrate deploy`.
 * Returns the names of the migrations applied now (empty when up to date).
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: SchemaEngineOptions = {},
): Promise<string[]> {
  const paths = resolvePrismaPaths(options.prismaDir);
  const migrationsList = await readMigrationsList(paths.migrationsDir);
  return withEngine(adapterFactory, paths, options, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return result.appliedMigrationNames;
  });
}

/**
 * The SQL that would bring a database built from the committed migrations to
 * the current schema.prisma; empty string when there is no drift. Replays the
 * migrations on a private in-memory PGlite, so no database is needed.
 */
export async function diffMigrationsToSchema(options: SchemaEngineOptions = {}): Promise<string> {
  const paths = resolvePrismaPaths(options.prismaDir);
  const migrationsList = await readMigrationsList(paths.migrationsDir);
  const scratch = new PGlite();
  try {
    return await withEngine(scratchFactory(scratch), paths, options, async (engine, schema) => {
      const from: SchemaEngineWasm.DiffTarget =
        migrationsList.migrationDirectories.length > 0 ? { tag: 'migrations', ...migrationsList } : { tag: 'empty' };
      const result = await engine.diff({
        from,
        to: { tag: 'schemaDatamodel', files: [schema] },
        script: true,
        // exitCode 2 = non-empty diff; the script of an empty diff is a comment, not ''.
        exitCode: true,
        filters: NO_FILTERS,
      });
      return result.exitCode === 2 ? (result.stdout ?? '') : '';
    });
  } finally {
    await scratch.close();
  }
}

/**
 * The engine opens both a main and a shadow connection for a diff, but only
 * replays the migrations on the shadow one: one throw-away PGlite serves both,
 * which halves the cost (starting a PGlite takes seconds).
 */
function scratchFactory(scratch: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const factory = createPgliteAdapterFactory(scratch);
  return { ...factory, connectToShadowDb: () => factory.connect() };
}

/**
 * Writes `prisma/migrations/<timestamp>_<name>/migration.sql` with the diff
 * between the committed migrations and schema.prisma (and the lock file when
 * missing). Returns null, writing nothing, when the schema has not changed.
 */
export async function createMigration(
  name: string,
  options: SchemaEngineOptions & { now?: Date } = {},
): Promise<CreatedMigration | null> {
  const slug = migrationSlug(name);
  const paths = resolvePrismaPaths(options.prismaDir);
  const sql = await diffMigrationsToSchema(options);
  if (!sql) return null;
  return writeMigration(paths.migrationsDir, slug, sql, options.now ?? new Date());
}
