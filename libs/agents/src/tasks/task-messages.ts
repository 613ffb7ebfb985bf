import { v1 } from '@s2sp/contracts';
import { toJsonObject } from '@s2sp/contracts/internal';
import { dataPlaneMessage, errorInfoMessage, timestampOrUnset, usageMessage } from '../grpc/common-messages';
import type { StepRecord, TaskStatusName, TaskView, ToolCallRecord } from './task-records';

/** s2sp.v1.TaskStatus enum value. */
export function taskStatusEnum(status: TaskStatusName): v1.TaskStatus {
  return `TASK_STATUS_${status}`;
}

/** s2sp.v1.ToolInvocationRecord. */
export function toolCallMessage(call: ToolCallRecord): v1.ToolInvocationRecord {
  return {
    invocation_id: call.invocation_id,
    tool_name: call.tool_name,
    server: call.server,
    status: `TOOL_RESULT_STATUS_${call.status}`,
    usage: usageMessage(call.usage),
    data_plane: call.data_plane ? dataPlaneMessage(call.data_plane) : undefined,
    started_at: timestampOrUnset(call.started_at_ms),
    finished_at: timestampOrUnset(call.finished_at_ms),
  };
}

/** s2sp.v1.AgentStepResult. */
export function stepMessage(step: StepRecord, traceId?: string): v1.AgentStepResult {
  return {
    task_id: step.task_id,
    step_number: step.step_number,
    type: `STEP_TYPE_${step.type}`,
    outcome: `STEP_OUTCOME_${step.outcome}`,
    payload: toJsonObject(step.payload ?? {}),
    tool_calls: (step.tool_calls ?? []).map(toolCallMessage),
    usage: usageMessage(step.usage),
    trace: traceId ? traceIdOnly(traceId) : undefined,
    plan_step_id: step.plan_step_id ?? '',
    summary: step.summary ?? '',
    error: step.error ? errorInfoMessage(step.error) : undefined,
    started_at: timestampOrUnset(step.started_at_ms),
    finished_at: timestampOrUnset(step.finished_at_ms),
  };
}

/** s2sp.v1.TaskSnapshot. */
export function snapshotMessage(view: TaskView): v1.TaskSnapshot {
  return {
    task_id: view.taskId,
    status: taskStatusEnum(view.status),
    steps: view.steps.map((step) => stepMessage(step, view.traceId)),
    usage: usageMessage(view.usage),
    result: view.result ? toJsonObject(view.result) : undefined,
    error: view.error ? errorInfoMessage(view.error) : undefined,
    created_at: timestampOrUnset(view.createdAtMs),
    updated_at: timestampOrUnset(view.updatedAtMs),
    completed_at: timestampOrUnset(view.completedAtMs),
    trace: view.traceId ? traceIdOnly(view.traceId) : undefined,
  };
}

function traceIdOnly(traceId: string): v1.TraceContext {
  return v1.TraceContext.create({ trace_id: traceId });
}
