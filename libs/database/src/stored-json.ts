import type { Prisma } from './generated/client';

/**
 * A value the database stores in a `Json` column (what the generated client accepts on write).
 * @internal
 */
export type StoredJson = Prisma.InputJsonValue;
