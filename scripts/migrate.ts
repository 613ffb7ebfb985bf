// Applies the committed Prisma migrations to the configured S2SP database:
// PostgreSQL when DATABASE_URL is a postgres URL, otherwise the embedded PostgreSQL
// server in S2SP_DATA_DIR (default .data/s2sp).
//   npm run build && node dist/scripts/migrate.js
import { openS2spDatabase } from '@s2sp/database';
import { DEFAULT_DATA_DIR } from '../libs/database/src/database';
import { isPostgresUrl } from '../libs/database/src/postgres-url';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = process.env.S2SP_DATA_DIR || DEFAULT_DATA_DIR;
  // Never print the URL: it may carry a password.
  const target = isPostgresUrl(databaseUrl) ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${dataDir}`;

  const db = await openS2spDatabase({ databaseUrl, dataDir, migrate: true });
  try {
    if (db.appliedMigrations.length === 0) {
      console.log(`migrate: ${target} is up to date`);
    } else {
      console.log(
        `migrate: applied ${db.appliedMigrations.length} migration(s) to ${target}: ${db.appliedMigrations.join(', ')}`,
      );
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error('migrate failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
