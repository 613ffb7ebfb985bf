/**
 * How the writes of one audit trail are going, for health reports. `failing`:
 * the last write failed; what it held is still buffered and being retried.
 * @public
 */
export interface AuditWriteStatus {
  readonly status: 'ok' | 'failing';
  /** Records buffered, not yet stored. */
  readonly pending: number;
  /** Failed write attempts since start. */
  readonly failedWrites: number;
  /** Failed attempts since the last successful write. */
  readonly consecutiveFailures: number;
  /** Records refused because the buffer was full and the store still failing (their callers got the error). */
  readonly rejected: number;
  /** Kind of the last error (its name and code: never a value it may quote). */
  readonly lastError?: string;
  readonly lastFailureAt?: string;
}

/**
 * An audit sink (or trail) that can say how its writes are going.
 * @public
 */
export interface AuditWriteStatusSource {
  auditWriteStatus(): AuditWriteStatus;
}

/** @internal */
export function hasAuditWriteStatus(value: unknown): value is AuditWriteStatusSource {
  return typeof (value as Partial<AuditWriteStatusSource> | null)?.auditWriteStatus === 'function';
}

/** The name and code of an error, safe to report (a driver's message can quote the values it could not store). */
export function errorKind(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} ${code}` : error.name;
}
