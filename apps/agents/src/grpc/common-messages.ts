import { toStruct, toTimestamp, type ProtoTimestamp } from '@s2sp/contracts';
import type { UsageRecord } from '../common/usage';
import type { TaskErrorInfo } from '../tasks/agent-errors';
import type { DataPlaneRefRecord } from '../tools/data-plane-ref';

/** s2sp.v1.ResourceUsage. */
export function usageMessage(usage: UsageRecord): Record<string, number> {
  return {
    tokens_in_context: usage.tokens_in_context,
    tokens_kept_out: usage.tokens_kept_out,
    model_input_tokens: 0,
    model_output_tokens: 0,
    tool_calls: usage.tool_calls,
    wall_time_ms: usage.wall_time_ms,
    data_plane_bytes: usage.data_plane_bytes,
    rows_in_context: usage.rows_in_context,
    rows_kept_out: usage.rows_kept_out,
    cost_microdollars: 0,
  };
}

/** s2sp.v1.DataPlaneRef. */
export function dataPlaneMessage(ref: DataPlaneRefRecord): Record<string, unknown> {
  return {
    mode: ref.mode === 'async' ? 'DATA_PLANE_MODE_ASYNC' : 'DATA_PLANE_MODE_SYNC',
    resource_url: ref.resource_url ?? '',
    expires_at: ref.expires_at_ms === undefined ? null : toTimestamp(ref.expires_at_ms),
    abstract_domains: ref.abstract_domains,
    body_domains: ref.body_domains,
    total_rows: ref.total_rows,
  };
}

/** s2sp.v1.ErrorInfo. */
export function errorInfoMessage(error: TaskErrorInfo): Record<string, unknown> {
  return {
    code: error.code,
    message: error.message,
    recovery_hint: error.recovery_hint,
    details: error.details ? toStruct(error.details) : null,
  };
}

export function timestampOrNull(ms: number | undefined | null): ProtoTimestamp | null {
  return ms === undefined || ms === null ? null : toTimestamp(ms);
}
