import { toStruct } from '@s2sp/contracts';
import { dataPlaneMessage, errorInfoMessage, timestampOrNull, usageMessage } from '../grpc/common-messages';
import type { StepRecord, TaskStatusName, TaskView, ToolCallRecord } from './task-records';

/** s2sp.v1.TaskStatus enum value. */
export function taskStatusEnum(status: TaskStatusName): string {
  return `TASK_STATUS_${status}`;
}

/** s2sp.v1.ToolInvocationRecord. */
export function toolCallMessage(call: ToolCallRecord): Record<string, unknown> {
  return {
    invocation_id: call.invocation_id,
    tool_name: call.tool_name,
    server: call.server,
    status: `TOOL_RESULT_STATUS_${call.status}`,
    usage: usageMessage(call.usage),
    data_plane: call.data_plane ? dataPlaneMessage(call.data_plane) : null,
    started_at: timestampOrNull(call.started_at_ms),
    finished_at: timestampOrNull(call.finished_at_ms),
  };
}

/** s2sp.v1.AgentStepResult. */
export function stepMessage(step: StepRecord, traceId?: string): Record<string, unknown> {
  return {
    task_id: step.task_id,
    step_number: step.step_number,
    type: `STEP_TYPE_${step.type}`,
    outcome: `STEP_OUTCOME_${step.outcome}`,
    payload: toStruct(step.payload ?? {}),
    tool_calls: (step.tool_calls ?? []).map(toolCallMessage),
    usage: usageMessage(step.usage),
    trace: traceId ? { trace_id: traceId } : null,
    plan_step_id: step.plan_step_id ?? '',
    summary: step.summary ?? '',
    error: step.error ? errorInfoMessage(step.error) : null,
    started_at: timestampOrNull(step.started_at_ms),
    finished_at: timestampOrNull(step.finished_at_ms),
  };
}

/** s2sp.v1.TaskSnapshot. */
export function snapshotMessage(view: TaskView): Record<string, unknown> {
  return {
    task_id: view.taskId,
    status: taskStatusEnum(view.status),
    steps: view.steps.map((step) => stepMessage(step, view.traceId)),
    usage: usageMessage(view.usage),
    result: view.result ? toStruct(view.result) : null,
    error: view.error ? errorInfoMessage(view.error) : null,
    created_at: timestampOrNull(view.createdAtMs),
    updated_at: timestampOrNull(view.updatedAtMs),
    completed_at: timestampOrNull(view.completedAtMs),
    trace: view.traceId ? { trace_id: view.traceId } : null,
  };
}
