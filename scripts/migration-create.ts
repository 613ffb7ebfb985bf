// Writes a new migration folder when prisma/schema.prisma changed:
//   npm run build && node dist/scripts/migration-create.js <name>
import { join } from 'node:path';
import { createMigration } from '../libs/database/src/schema-engine';

/** The repository's prisma/ (the package's copy is rewritten from it by every build). */
const REPOSITORY_PRISMA_DIR = join(__dirname, '..', '..', 'prisma');

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name) {
    console.error('usage: node dist/scripts/migration-create.js <name>');
    process.exitCode = 2;
    return;
  }
  const created = await createMigration(name, { prismaDir: REPOSITORY_PRISMA_DIR });
  if (!created) {
    console.log('migration-create: schema.prisma matches the committed migrations; nothing to do');
    return;
  }
  console.log(`migration-create: wrote ${created.directory}`);
}

main().catch((error: unknown) => {
  console.error('migration-create failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
