import { PGlite } from '@electric-sql/pglite';
import { createPgliteAdapterFactory } from './pglite-adapter';
import { resolvePrismaPaths } from './prisma-paths';
import { applyMigrations } from './schema-engine';
import {
  defaultTemplateCacheDir,
  type InMemoryTemplate,
  readCachedTemplate,
  removeCachedTemplate,
  templateKey,
  writeCachedTemplate,
} from './template-cache';

export interface FreshInMemoryDatabase {
  db: PGlite;
  /** The migrations the database was made with (all of them: it is new). */
  appliedMigrations: string[];
}

export interface InMemoryDatabaseOptions {
  migrate?: boolean;
  prismaDir?: string;
  /** Where templates are kept between processes; `false`: only in this process. */
  templateCacheDir?: string | false;
}

/**
 * Templates of this process, by migrations folder ('' for `migrate: false`).
 * A failed template is forgotten, so the next open tries again.
 */
const templates = new Map<string, Promise<InMemoryTemplate>>();

/**
 * A new in-process PGlite database. Running PGlite's initdb and then the
 * migrations costs seconds of CPU; loading a dump of the result costs well under
 * one. So the first in-memory database of a process (per migrations folder)
 * takes a template from the cache directory or makes one (and stores it there),
 * keeps it (about 4 MB) for the life of the process, and every in-memory
 * database is loaded from it: each is still its own, empty database.
 */
export async function freshInMemoryDatabase(options: InMemoryDatabaseOptions): Promise<FreshInMemoryDatabase> {
  const migrationsDir = options.migrate === false ? '' : resolvePrismaPaths(options.prismaDir).migrationsDir;
  let template = templates.get(migrationsDir);
  if (template === undefined) {
    template = cachedOrMadeTemplate(migrationsDir, options);
    templates.set(migrationsDir, template);
    template.catch(() => templates.delete(migrationsDir));
  }
  const { dump, appliedMigrations, cachedAt } = await template;
  try {
    return { db: await PGlite.create({ loadDataDir: dump }), appliedMigrations: [...appliedMigrations] };
  } catch (error) {
    if (cachedAt === undefined) throw error;
    // A cached dump PGlite cannot load (another PGlite build wrote it?): drop it and make one here.
    templates.delete(migrationsDir);
    await removeCachedTemplate(cachedAt.dir, cachedAt.key);
    return freshInMemoryDatabase({ ...options, templateCacheDir: false });
  }
}

async function cachedOrMadeTemplate(
  migrationsDir: string,
  options: InMemoryDatabaseOptions,
): Promise<InMemoryTemplate> {
  const cacheDir = options.templateCacheDir ?? defaultTemplateCacheDir();
  if (cacheDir === false) return makeTemplate(migrationsDir, options.prismaDir);
  const key = await templateKey(migrationsDir);
  const cached = await readCachedTemplate(cacheDir, key);
  if (cached !== undefined) return cached;
  const made = await makeTemplate(migrationsDir, options.prismaDir);
  await writeCachedTemplate(cacheDir, key, made);
  return made;
}

async function makeTemplate(migrationsDir: string, prismaDir: string | undefined): Promise<InMemoryTemplate> {
  const scratch = await PGlite.create();
  try {
    const appliedMigrations =
      migrationsDir === '' ? [] : await applyMigrations(createPgliteAdapterFactory(scratch), { prismaDir });
    return { dump: await scratch.dumpDataDir('gzip'), appliedMigrations };
  } finally {
    await scratch.close();
  }
}
