import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * In-memory database templates kept between processes (a test run starts many),
 * one pair of files per key: `<key>.json` (the migrations applied) and
 * `<key>.tgz` (PGlite's dump). The key hashes the PGlite release and every
 * migration's name and SQL, so a changed migration or PGlite makes a new one.
 * The cache is best effort: a directory that is not this user's own, or any
 * failure to read or write it, means the template is made in the process.
 */

/** A migrated, empty PGlite data directory (a gzip dump), and the migrations it holds. */
export interface InMemoryTemplate {
  dump: Blob;
  appliedMigrations: string[];
  /** Where it was read from, when it came from the cache. */
  cachedAt?: { dir: string; key: string };
}

/** `<os tmpdir>/s2sp-pglite-templates-<uid>`. */
export function defaultTemplateCacheDir(): string {
  return join(tmpdir(), `s2sp-pglite-templates-${process.getuid?.() ?? 'user'}`);
}

/** The template's key: PGlite's release and the migrations (`migrationsDir` '' for none). */
export async function templateKey(migrationsDir: string): Promise<string> {
  const hash = createHash('sha256').update(await readFile(pglitePackageJson()));
  if (migrationsDir !== '') {
    const entries = await readdir(migrationsDir, { withFileTypes: true });
    const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    for (const name of names.sort()) {
      hash.update(`\n${name}\n`);
      hash.update(await readFile(join(migrationsDir, name, 'migration.sql')));
    }
  }
  return hash.digest('hex').slice(0, 32);
}

export async function readCachedTemplate(dir: string, key: string): Promise<InMemoryTemplate | undefined> {
  try {
    if (!(await isOwnPrivateDirectory(dir))) return undefined;
    const appliedMigrations: unknown = JSON.parse(await readFile(join(dir, `${key}.json`), 'utf8'));
    if (!Array.isArray(appliedMigrations) || !appliedMigrations.every((name) => typeof name === 'string'))
      return undefined;
    const dump = await readFile(join(dir, `${key}.tgz`));
    return { dump: new Blob([dump]), appliedMigrations, cachedAt: { dir, key } };
  } catch {
    return undefined;
  }
}

/** Stores the template; each file is written aside and renamed, so readers never see half of one. */
export async function writeCachedTemplate(dir: string, key: string, template: InMemoryTemplate): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (!(await isOwnPrivateDirectory(dir))) return;
    await writeAtomically(join(dir, `${key}.json`), JSON.stringify(template.appliedMigrations));
    await writeAtomically(join(dir, `${key}.tgz`), new Uint8Array(await template.dump.arrayBuffer()));
  } catch {
    // Best effort: the next process makes the template again.
  }
}

export async function removeCachedTemplate(dir: string, key: string): Promise<void> {
  await Promise.all([`${key}.json`, `${key}.tgz`].map((name) => rm(join(dir, name), { force: true })));
}

async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(aside, data, { mode: 0o600 });
    await rename(aside, path);
  } finally {
    await rm(aside, { force: true });
  }
}

/** Owned by this user and writable by no one else, so no other user can plant a template. */
async function isOwnPrivateDirectory(dir: string): Promise<boolean> {
  const info = await stat(dir);
  if (!info.isDirectory() || (info.mode & 0o022) !== 0) return false;
  const uid = process.getuid?.();
  return uid === undefined || info.uid === uid;
}

/** PGlite's package.json (it exports none; its entry lives in `<package>/dist/`). */
function pglitePackageJson(): string {
  return join(dirname(dirname(require.resolve('@electric-sql/pglite'))), 'package.json');
}
