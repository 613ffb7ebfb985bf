-- ListTasks pages through one caller's tasks, newest first (apps/agents/src/tasks/task-repository.ts).
-- CreateIndex
CREATE INDEX "agent_task_caller_created_at_id_idx" ON "agent_task"("caller", "created_at", "id");
