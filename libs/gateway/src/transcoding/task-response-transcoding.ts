import type { JsonObject, v1, v2 } from '@s2sp/contracts';
import { ENUM_PREFIX, protoEnumToJson } from './proto-enum';
import { compact, nonEmpty, protoCount, protoStructToJson, protoTimeToIso } from './proto-values';

/*
 * Proto -> JSON for agent.* results. Conventions (the same for every method):
 * member names are the proto field names (snake_case); enums are lower-case
 * value names without the enum prefix ("running", "s2sp_resource", "unspecified");
 * Timestamps are ISO-8601 strings; Structs are plain JSON; 64-bit counters are
 * numbers; unset messages, empty strings and unset Timestamps are left out.
 */

export interface SubmitTaskResult {
  task_id: string;
  /** accepted | running | cancelling | succeeded | failed | cancelled | unspecified */
  status: string;
  estimated_completion_ms?: number;
  trace_id?: string;
}

export interface CancelTaskResult {
  task_id: string;
  status: string;
}

export interface ResourceUsageJson {
  tokens_in_context: number;
  tokens_kept_out: number;
  model_input_tokens: number;
  model_output_tokens: number;
  tool_calls: number;
  wall_time_ms: number;
  data_plane_bytes: number;
  rows_in_context: number;
  rows_kept_out: number;
  cost_microdollars: number;
}

export interface ErrorInfoJson {
  code: number;
  message: string;
  recovery_hint?: string;
  details?: JsonObject;
}

/**
 * A data-plane reference without its resource_url: the URL is a single-use
 * capability for the platform's consumer servers and never leaves the platform
 * through a task snapshot.
 */
export interface DataPlaneRefJson {
  /** async | sync | unspecified */
  mode: string;
  expires_at?: string;
  abstract_domains: string[];
  body_domains: string[];
  total_rows: number;
}

export interface ToolInvocationRecordJson {
  invocation_id: string;
  tool_name: string;
  server: string;
  /** success | error | timeout | approval_pending | unspecified */
  status: string;
  usage: ResourceUsageJson;
  data_plane?: DataPlaneRefJson;
  started_at?: string;
  finished_at?: string;
}

export interface StepResultJson {
  step_number: number;
  plan_step_id?: string;
  /** plan | retrieve | act | verify | critique | repair | commit | unspecified */
  type: string;
  /** success | partial | failure | needs_repair | unspecified */
  outcome: string;
  summary?: string;
  payload?: JsonObject;
  tool_calls: ToolInvocationRecordJson[];
  usage: ResourceUsageJson;
  error?: ErrorInfoJson;
  started_at?: string;
  finished_at?: string;
}

export interface TaskSnapshotJson {
  task_id: string;
  status: string;
  steps: StepResultJson[];
  usage: ResourceUsageJson;
  result?: JsonObject;
  error?: ErrorInfoJson;
  created_at?: string;
  updated_at?: string;
  completed_at?: string;
  trace_id?: string;
}

/** One task of agent.listTasks. */
export interface TaskSummaryJson {
  task_id: string;
  status: string;
  agent_type?: string;
  objective?: string;
  plan_steps: number;
  usage: ResourceUsageJson;
  created_at?: string;
  updated_at?: string;
  completed_at?: string;
}

export interface ListTasksResult {
  tasks: TaskSummaryJson[];
  /** Absent on the last page. */
  next_cursor?: string;
}

export function listTasksResult(response: v2.ListTasksResponse): ListTasksResult {
  return compact({
    tasks: (response.tasks ?? []).map((task) =>
      compact({
        task_id: task.task_id ?? '',
        status: protoEnumToJson(task.status, ENUM_PREFIX.TASK_STATUS),
        agent_type: nonEmpty(task.agent_type),
        objective: nonEmpty(task.objective),
        plan_steps: task.plan_steps ?? 0,
        usage: usageToJson(task.usage),
        created_at: protoTimeToIso(task.created_at),
        updated_at: protoTimeToIso(task.updated_at),
        completed_at: protoTimeToIso(task.completed_at),
      }),
    ),
    next_cursor: nonEmpty(response.next_cursor),
  });
}

export function submitTaskResult(
  response: v1.SubmitTaskResponse,
  fallback: { taskId: string; traceId?: string },
): SubmitTaskResult {
  const estimate = protoCount(response.estimated_completion_ms);
  return compact({
    task_id: nonEmpty(response.task_id) ?? fallback.taskId,
    status: protoEnumToJson(response.status, ENUM_PREFIX.TASK_STATUS),
    estimated_completion_ms: estimate > 0 ? estimate : undefined,
    trace_id: nonEmpty(response.trace?.trace_id) ?? fallback.traceId,
  });
}

export function cancelTaskResult(response: v1.CancelTaskResponse, taskId: string): CancelTaskResult {
  return {
    task_id: nonEmpty(response.task_id) ?? taskId,
    status: protoEnumToJson(response.status, ENUM_PREFIX.TASK_STATUS),
  };
}

export function taskSnapshotToJson(task: v1.TaskSnapshot): TaskSnapshotJson {
  return compact({
    task_id: task.task_id ?? '',
    status: protoEnumToJson(task.status, ENUM_PREFIX.TASK_STATUS),
    steps: (task.steps ?? []).map(stepResultToJson),
    usage: usageToJson(task.usage),
    result: protoStructToJson(task.result),
    error: errorInfoToJson(task.error),
    created_at: protoTimeToIso(task.created_at),
    updated_at: protoTimeToIso(task.updated_at),
    completed_at: protoTimeToIso(task.completed_at),
    trace_id: nonEmpty(task.trace?.trace_id),
  });
}

export function stepResultToJson(step: v1.AgentStepResult): StepResultJson {
  return compact({
    step_number: step.step_number ?? 0,
    plan_step_id: nonEmpty(step.plan_step_id),
    type: protoEnumToJson(step.type, ENUM_PREFIX.STEP_TYPE),
    outcome: protoEnumToJson(step.outcome, ENUM_PREFIX.STEP_OUTCOME),
    summary: nonEmpty(step.summary),
    payload: protoStructToJson(step.payload),
    tool_calls: (step.tool_calls ?? []).map(toolInvocationRecordToJson),
    usage: usageToJson(step.usage),
    error: errorInfoToJson(step.error),
    started_at: protoTimeToIso(step.started_at),
    finished_at: protoTimeToIso(step.finished_at),
  });
}

function toolInvocationRecordToJson(record: v1.ToolInvocationRecord): ToolInvocationRecordJson {
  return compact({
    invocation_id: record.invocation_id ?? '',
    tool_name: record.tool_name ?? '',
    server: record.server ?? '',
    status: protoEnumToJson(record.status, ENUM_PREFIX.TOOL_RESULT_STATUS),
    usage: usageToJson(record.usage),
    data_plane: dataPlaneToJson(record.data_plane),
    started_at: protoTimeToIso(record.started_at),
    finished_at: protoTimeToIso(record.finished_at),
  });
}

export function dataPlaneToJson(ref: v1.DataPlaneRef | null | undefined): DataPlaneRefJson | undefined {
  if (!ref) return undefined;
  return compact({
    mode: protoEnumToJson(ref.mode, ENUM_PREFIX.DATA_PLANE_MODE),
    expires_at: protoTimeToIso(ref.expires_at),
    abstract_domains: [...(ref.abstract_domains ?? [])],
    body_domains: [...(ref.body_domains ?? [])],
    total_rows: protoCount(ref.total_rows),
  });
}

export function usageToJson(usage: v1.ResourceUsage | null | undefined): ResourceUsageJson {
  return {
    tokens_in_context: protoCount(usage?.tokens_in_context),
    tokens_kept_out: protoCount(usage?.tokens_kept_out),
    model_input_tokens: protoCount(usage?.model_input_tokens),
    model_output_tokens: protoCount(usage?.model_output_tokens),
    tool_calls: usage?.tool_calls ?? 0,
    wall_time_ms: protoCount(usage?.wall_time_ms),
    data_plane_bytes: protoCount(usage?.data_plane_bytes),
    rows_in_context: protoCount(usage?.rows_in_context),
    rows_kept_out: protoCount(usage?.rows_kept_out),
    cost_microdollars: protoCount(usage?.cost_microdollars),
  };
}

export function errorInfoToJson(error: v1.ErrorInfo | null | undefined): ErrorInfoJson | undefined {
  if (!error || (!error.code && !error.message)) return undefined;
  return compact({
    code: error.code ?? 0,
    message: error.message ?? '',
    recovery_hint: nonEmpty(error.recovery_hint),
    details: protoStructToJson(error.details),
  });
}
