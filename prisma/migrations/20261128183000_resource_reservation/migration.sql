-- A reserved row holds only a resource_url committed ahead of its use, so that issuing a
-- resource waits for no database round trip. Its metadata and table are written once the
-- resource is issued, and until then it is neither live nor claimable
-- (libs/s2sp/src/store/resource-reservations.ts).

-- AlterTable
ALTER TABLE "s2sp_resource" ADD COLUMN "reserved" BOOLEAN NOT NULL DEFAULT false;
