import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the Prisma schema and the committed migrations live. */
export interface PrismaPaths {
  /** The `prisma/` folder. */
  prismaDir: string;
  schemaPath: string;
  migrationsDir: string;
}

const SCHEMA_FILE = 'schema.prisma';

/**
 * The package's own `prisma/` folder (shipped with it; `npm run build` copies
 * the repository's prisma/ there), or `prismaDir` when one is given.
 */
export function resolvePrismaPaths(prismaDir?: string): PrismaPaths {
  const dir = prismaDir === undefined ? path.join(__dirname, '..', 'prisma') : path.resolve(prismaDir);
  if (!fs.existsSync(path.join(dir, SCHEMA_FILE))) {
    throw new Error(
      `No ${SCHEMA_FILE} in ${dir}${prismaDir === undefined ? ' (the @s2sp/database package is incomplete: reinstall it)' : ''}`,
    );
  }
  return pathsFor(dir);
}

function pathsFor(prismaDir: string): PrismaPaths {
  return {
    prismaDir,
    schemaPath: path.join(prismaDir, SCHEMA_FILE),
    migrationsDir: path.join(prismaDir, 'migrations'),
  };
}
