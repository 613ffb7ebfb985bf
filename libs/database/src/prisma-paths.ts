import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the Prisma schema and the committed migrations live. */
export interface PrismaPaths {
  /** The `prisma/` folder. */
  prismaDir: string;
  schemaPath: string;
  migrationsDir: string;
}

/** Environment variable that overrides where the `prisma/` folder is looked for. */
export const PRISMA_DIR_ENV = 'S2SP_PRISMA_DIR';

const SCHEMA_FILE = 'schema.prisma';

/**
 * Locates the `prisma/` folder. Order: the explicit `prismaDir`, then
 * `$S2SP_PRISMA_DIR`, then the nearest ancestor of this file (works from the TS
 * sources and from `dist/`) or of the working directory that holds
 * `prisma/schema.prisma`.
 */
export function resolvePrismaPaths(prismaDir?: string): PrismaPaths {
  const explicit = prismaDir ?? process.env[PRISMA_DIR_ENV];
  if (explicit) {
    const dir = path.resolve(explicit);
    if (!fs.existsSync(path.join(dir, SCHEMA_FILE))) {
      throw new Error(`No ${SCHEMA_FILE} in ${dir}`);
    }
    return pathsFor(dir);
  }
  for (const start of [__dirname, process.cwd()]) {
    const found = findUpwards(start);
    if (found) return pathsFor(found);
  }
  throw new Error(`Cannot find prisma/${SCHEMA_FILE} above ${__dirname} or ${process.cwd()}; set ${PRISMA_DIR_ENV}`);
}

function findUpwards(start: string): string | null {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, 'prisma');
    if (fs.existsSync(path.join(candidate, SCHEMA_FILE))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function pathsFor(prismaDir: string): PrismaPaths {
  return {
    prismaDir,
    schemaPath: path.join(prismaDir, SCHEMA_FILE),
    migrationsDir: path.join(prismaDir, 'migrations'),
  };
}
