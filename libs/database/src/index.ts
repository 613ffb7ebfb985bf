export { openS2spDatabase, type S2spDatabaseKind, type OpenS2spDatabaseOptions, type S2spDatabase } from './database';
export * from './database.module';
export { type SqlChannel } from './sql-channel';
export {
  type EmbeddedPostgresOptions,
  DEFAULT_EMBEDDED_POSTGRES_SETTINGS,
  DataDirectoryInUseError,
} from './embedded-postgres-server';
export type {
  EmbeddedPostgresEvent,
  EmbeddedPostgresRestartOptions,
  EmbeddedPostgresState,
} from './embedded-postgres-supervisor';
export { Prisma, PrismaClient } from './generated/client';
