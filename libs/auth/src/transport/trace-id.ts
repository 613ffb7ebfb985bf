const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/;
const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * The trace id of a W3C `traceparent` (or of an `x-trace-id` fallback), when well formed.
 * @internal
 */
export function traceIdFrom(traceparent: unknown, fallback?: unknown): string | undefined {
  const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
  const parent = first(traceparent);
  if (typeof parent === 'string') {
    const match = TRACEPARENT.exec(parent.trim().toLowerCase());
    if (match && !/^0+$/.test(match[1])) return match[1];
  }
  const plain = first(fallback);
  if (typeof plain === 'string' && TRACE_ID.test(plain.trim().toLowerCase())) return plain.trim().toLowerCase();
  return undefined;
}
