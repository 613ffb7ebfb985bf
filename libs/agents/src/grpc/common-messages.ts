import { type v1 } from '@s2sp/contracts';
import { toJsonObject, toTimestamp } from '@s2sp/contracts/internal';
import type { UsageRecord } from '../common/usage';
import type { TaskErrorInfo } from '../tasks/agent-errors';
import type { DataPlaneRefRecord } from '../tools/data-plane-ref';

/** s2sp.v1.ResourceUsage (uint64 counters travel as decimal strings). */
export function usageMessage(usage: UsageRecord): v1.ResourceUsage {
  return {
    tokens_in_context: String(usage.tokens_in_context),
    tokens_kept_out: String(usage.tokens_kept_out),
    model_input_tokens: '0',
    model_output_tokens: '0',
    tool_calls: usage.tool_calls,
    wall_time_ms: String(usage.wall_time_ms),
    data_plane_bytes: String(usage.data_plane_bytes),
    rows_in_context: String(usage.rows_in_context),
    rows_kept_out: String(usage.rows_kept_out),
    cost_microdollars: '0',
  };
}

/** s2sp.v1.DataPlaneRef. */
export function dataPlaneMessage(ref: DataPlaneRefRecord): v1.DataPlaneRef {
  return {
    mode: ref.mode === 'async' ? 'DATA_PLANE_MODE_ASYNC' : 'DATA_PLANE_MODE_SYNC',
    resource_url: ref.resource_url ?? '',
    expires_at: timestampOrUnset(ref.expires_at_ms),
    abstract_domains: ref.abstract_domains,
    body_domains: ref.body_domains,
    total_rows: String(ref.total_rows),
  };
}

/** s2sp.v1.ErrorInfo. */
export function errorInfoMessage(error: TaskErrorInfo): v1.ErrorInfo {
  return {
    code: error.code,
    message: error.message,
    recovery_hint: error.recovery_hint,
    details: error.details ? toJsonObject(error.details) : undefined,
  };
}

export function timestampOrUnset(ms: number | undefined | null): v1.Timestamp | undefined {
  return ms === undefined || ms === null ? undefined : toTimestamp(ms);
}
