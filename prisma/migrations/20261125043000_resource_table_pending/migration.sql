-- With resourceWriteMode 'after-answer' a resource row is committed before its table:
-- a null table_length marks a table still being written, which another replica's
-- claim waits for (libs/s2sp/src/store/prisma-resource-store.ts).

-- AlterTable
ALTER TABLE "s2sp_resource" ALTER COLUMN "table_length" DROP NOT NULL,
ALTER COLUMN "table_length" DROP DEFAULT;
