import type { JsonObject } from '@s2sp/contracts';
import type { UsageRecord } from '../common/usage';
import type { DataPlaneRefRecord } from '../tools/data-plane-ref';
import type { TaskErrorInfo } from './agent-errors';

/** @public */
export type TaskStatusName = 'ACCEPTED' | 'RUNNING' | 'CANCELLING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
/** @public */
export type StepTypeName = 'PLAN' | 'RETRIEVE' | 'ACT' | 'VERIFY' | 'CRITIQUE' | 'REPAIR' | 'COMMIT';
/** @public */
export type StepOutcomeName = 'SUCCESS' | 'PARTIAL' | 'FAILURE' | 'NEEDS_REPAIR';

export const FINAL_STATUSES: ReadonlySet<TaskStatusName> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);
export const UNFINISHED_STATUSES: readonly TaskStatusName[] = ['ACCEPTED', 'RUNNING', 'CANCELLING'];

/**
 * ToolInvocationRecord (s2sp.v1) in JSON form.
 * @public
 */
export interface ToolCallRecord {
  invocation_id: string;
  tool_name: string;
  server: string;
  status: 'SUCCESS' | 'ERROR' | 'TIMEOUT';
  usage: UsageRecord;
  data_plane?: DataPlaneRefRecord;
  started_at_ms: number;
  finished_at_ms: number;
}

/**
 * AgentStepResult (s2sp.v1) in JSON form: what is streamed and stored for
 * each step. Control plane only: the payload never holds body rows, and
 * resource_urls are redacted.
 * @public
 */
export interface StepRecord {
  task_id: string;
  step_number: number;
  type: StepTypeName;
  outcome: StepOutcomeName;
  plan_step_id: string;
  summary: string;
  payload: JsonObject;
  tool_calls: ToolCallRecord[];
  usage: UsageRecord;
  error?: TaskErrorInfo;
  started_at_ms: number;
  finished_at_ms: number;
}

/** Everything GetTask answers with (TaskSnapshot in JSON form). */
export interface TaskView {
  taskId: string;
  /** Subject of the caller that submitted it. */
  caller?: string;
  status: TaskStatusName;
  steps: StepRecord[];
  usage: UsageRecord;
  result?: JsonObject;
  error?: TaskErrorInfo;
  createdAtMs: number;
  updatedAtMs: number;
  completedAtMs?: number;
  traceId?: string;
}
