/**
 * google.protobuf.Timestamp as proto-loader gives it with `longs: String`.
 * @internal
 */
export interface ProtoTimestamp {
  seconds?: string | number | { toString(): string } | null;
  nanos?: number | null;
}

/**
 * Date or epoch milliseconds -> Timestamp (seconds as a decimal string, like longs: String; sub-ms dropped).
 * @internal
 */
export function toTimestamp(time: Date | number): { seconds: string; nanos: number } {
  const ms = time instanceof Date ? time.getTime() : time;
  if (!Number.isFinite(ms)) throw new RangeError(`invalid time: ${String(time)}`);
  const wholeMs = Math.floor(ms);
  const seconds = Math.floor(wholeMs / 1000);
  return { seconds: String(seconds), nanos: (wholeMs - seconds * 1000) * 1_000_000 };
}

/**
 * Timestamp -> epoch milliseconds (sub-millisecond nanos are truncated); null/unset -> undefined.
 * @internal
 */
export function timestampToMs(timestamp: ProtoTimestamp | null | undefined): number | undefined {
  if (timestamp == null || (timestamp.seconds == null && timestamp.nanos == null)) return undefined;
  const seconds = Number(String(timestamp.seconds ?? 0));
  const nanos = Number(timestamp.nanos ?? 0);
  return seconds * 1000 + Math.floor(nanos / 1_000_000);
}

/** Timestamp -> Date; null/unset -> undefined. */
export function timestampToDate(timestamp: ProtoTimestamp | null | undefined): Date | undefined {
  const ms = timestampToMs(timestamp);
  return ms === undefined ? undefined : new Date(ms);
}
