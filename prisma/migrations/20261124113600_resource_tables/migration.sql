-- Resources are stored as one encoded table (see libs/s2sp/src/store/resource-table.ts) in
-- ordered chunks instead of one database row per data row.

-- AlterTable
ALTER TABLE "s2sp_resource" ADD COLUMN     "table_length" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "s2sp_resource_chunk" (
    "resource_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" TEXT NOT NULL,

    CONSTRAINT "s2sp_resource_chunk_pkey" PRIMARY KEY ("resource_id","seq")
);

-- The encoded text is already compact and read whole: skip TOAST compression.
ALTER TABLE "s2sp_resource_chunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;

-- Resources still outstanding keep their body: one chunk holding the rows in _row_id order.
INSERT INTO "s2sp_resource_chunk" ("resource_id", "seq", "data")
SELECT "resource_id", 0, json_agg("body" ORDER BY "row_id")::text
FROM "s2sp_resource_row"
GROUP BY "resource_id";

UPDATE "s2sp_resource" AS r SET "table_length" = length(c."data")
FROM "s2sp_resource_chunk" AS c WHERE c."resource_id" = r."id";

-- DropForeignKey
ALTER TABLE "s2sp_resource_row" DROP CONSTRAINT "s2sp_resource_row_resource_id_fkey";

-- DropTable
DROP TABLE "s2sp_resource_row";

-- AddForeignKey
ALTER TABLE "s2sp_resource_chunk" ADD CONSTRAINT "s2sp_resource_chunk_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "s2sp_resource"("id") ON DELETE CASCADE ON UPDATE CASCADE;
