// @s2sp/database/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { type StoredJson } from './stored-json';
// The S2SP database without Prisma's client: what S2spModule's default store opens (the package's
// index exports PrismaClient, whose runtime would load with it).
export { openS2spDatabase } from './database';
