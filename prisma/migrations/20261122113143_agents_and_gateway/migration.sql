-- CreateTable
CREATE TABLE "agent_task" (
    "id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "agent_type" TEXT NOT NULL,
    "objective" JSONB NOT NULL,
    "constraints" JSONB NOT NULL,
    "plan" JSONB NOT NULL,
    "caller" TEXT,
    "deadline" TIMESTAMPTZ(3),
    "result" JSONB,
    "error" JSONB,
    "usage" JSONB NOT NULL,
    "trace_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_task_step" (
    "task_id" UUID NOT NULL,
    "step_number" INTEGER NOT NULL,
    "result" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_task_step_pkey" PRIMARY KEY ("task_id","step_number")
);

-- CreateTable
CREATE TABLE "idempotency_record" (
    "key_hash" CHAR(64) NOT NULL,
    "method" TEXT NOT NULL,
    "request_hash" CHAR(64) NOT NULL,
    "state" TEXT NOT NULL,
    "response" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("key_hash")
);

-- CreateIndex
CREATE INDEX "agent_task_status_idx" ON "agent_task"("status");

-- CreateIndex
CREATE INDEX "idempotency_record_expires_at_idx" ON "idempotency_record"("expires_at");

-- AddForeignKey
ALTER TABLE "agent_task_step" ADD CONSTRAINT "agent_task_step_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "agent_task"("id") ON DELETE CASCADE ON UPDATE CASCADE;
