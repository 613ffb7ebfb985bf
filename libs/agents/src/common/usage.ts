/**
 * ResourceUsage (s2sp.v1) as the agents count it, per tool call, per step and per task.
 * @public
 */
export interface UsageRecord {
  /** Tokens (o200k_base) of what entered the model's / planner's context: the control plane. */
  tokens_in_context: number;
  /** Tokens S2SP kept out of the context: the body columns on the data plane (or in the agents' buffer). */
  tokens_kept_out: number;
  tool_calls: number;
  wall_time_ms: number;
  /** Bytes of body JSON that travelled (or would travel) server to server. */
  data_plane_bytes: number;
  rows_in_context: number;
  rows_kept_out: number;
}

export function emptyUsage(): UsageRecord {
  return {
    tokens_in_context: 0,
    tokens_kept_out: 0,
    tool_calls: 0,
    wall_time_ms: 0,
    data_plane_bytes: 0,
    rows_in_context: 0,
    rows_kept_out: 0,
  };
}

export function addUsage(total: UsageRecord, part: UsageRecord): UsageRecord {
  return {
    tokens_in_context: total.tokens_in_context + part.tokens_in_context,
    tokens_kept_out: total.tokens_kept_out + part.tokens_kept_out,
    tool_calls: total.tool_calls + part.tool_calls,
    wall_time_ms: total.wall_time_ms + part.wall_time_ms,
    data_plane_bytes: total.data_plane_bytes + part.data_plane_bytes,
    rows_in_context: total.rows_in_context + part.rows_in_context,
    rows_kept_out: total.rows_kept_out + part.rows_kept_out,
  };
}

/** Reads a usage record back from stored JSON, tolerating missing fields. */
export function usageFromJson(value: unknown): UsageRecord {
  const usage = emptyUsage();
  if (typeof value !== 'object' || value === null) return usage;
  for (const key of Object.keys(usage) as Array<keyof UsageRecord>) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'number' && Number.isFinite(field) && field >= 0) usage[key] = field;
  }
  return usage;
}
