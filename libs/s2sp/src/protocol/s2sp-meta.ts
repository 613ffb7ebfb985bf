import { S2SP_META } from '@s2sp/platform/internal';

export { S2SP_META };

/** The `_meta` object of an MCP request, if any. */
export function requestMeta(request: unknown): Record<string, unknown> {
  const params = (request as { params?: { _meta?: unknown } } | undefined)?.params;
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
}

/** The absolute deadline a caller put in `_meta`, or undefined when absent or not a finite number. */
export function deadlineFromMeta(meta: Record<string, unknown>): number | undefined {
  const value = meta[S2SP_META.DEADLINE_MS];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The resource's row count a caller put in `_meta`, or undefined when absent or not a non-negative integer. */
export function totalRowsFromMeta(meta: Record<string, unknown>): number | undefined {
  const value = meta[S2SP_META.TOTAL_ROWS];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
