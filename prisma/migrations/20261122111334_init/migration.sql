-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "s2sp_resource" (
    "id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "tool_name" TEXT NOT NULL,
    "columns" JSONB NOT NULL,
    "abstract_domains" JSONB NOT NULL,
    "body_domains" JSONB NOT NULL,
    "row_count" INTEGER NOT NULL,
    "caller" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "s2sp_resource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "s2sp_resource_row" (
    "resource_id" UUID NOT NULL,
    "row_id" INTEGER NOT NULL,
    "body" JSON NOT NULL,

    CONSTRAINT "s2sp_resource_row_pkey" PRIMARY KEY ("resource_id","row_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "s2sp_resource_token_hash_key" ON "s2sp_resource"("token_hash");

-- CreateIndex
CREATE INDEX "s2sp_resource_expires_at_idx" ON "s2sp_resource"("expires_at");

-- AddForeignKey
ALTER TABLE "s2sp_resource_row" ADD CONSTRAINT "s2sp_resource_row_resource_id_fkey" FOREIGN KEY ("resource_id") REFERENCES "s2sp_resource"("id") ON DELETE CASCADE ON UPDATE CASCADE;
