-- AlterTable
ALTER TABLE "s2sp_resource" ADD COLUMN     "caller_scopes" JSONB,
ADD COLUMN     "consumer" TEXT,
ADD COLUMN     "required_scopes" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "s2sp_audit_event" (
    "id" UUID NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "decision" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "authentication_failure" TEXT,
    "subject" TEXT,
    "delegated_by" JSONB NOT NULL,
    "client_id" TEXT,
    "token_id" TEXT,
    "issuer" TEXT,
    "caller_scopes" JSONB,
    "protocol" TEXT NOT NULL,
    "service" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "required_scopes" JSONB NOT NULL,
    "missing_scopes" JSONB NOT NULL,
    "mutation_class" TEXT NOT NULL,
    "approval" JSONB,
    "trace_id" TEXT,
    "remote_address" TEXT,

    CONSTRAINT "s2sp_audit_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "s2sp_data_fetch" (
    "id" UUID NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resource_id" UUID,
    "tool_name" TEXT,
    "subject" TEXT,
    "consumer" TEXT,
    "delegated_by" JSONB NOT NULL,
    "caller_scopes" JSONB,
    "result" TEXT NOT NULL,
    "reason" TEXT,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "columns" INTEGER NOT NULL DEFAULT 0,
    "bytes" INTEGER NOT NULL DEFAULT 0,
    "trace_id" TEXT,

    CONSTRAINT "s2sp_data_fetch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "s2sp_audit_event_time_idx" ON "s2sp_audit_event"("time");

-- CreateIndex
CREATE INDEX "s2sp_audit_event_subject_time_idx" ON "s2sp_audit_event"("subject", "time");

-- CreateIndex
CREATE INDEX "s2sp_data_fetch_time_idx" ON "s2sp_data_fetch"("time");

-- CreateIndex
CREATE INDEX "s2sp_data_fetch_resource_id_idx" ON "s2sp_data_fetch"("resource_id");
