/**
 * Trailing-metadata keys with which internal gRPC services refine an error
 * for the gateway (which maps gRPC status + these to JSON-RPC codes).
 * @public
 */
export const GRPC_ERROR_METADATA = {
  /** Platform code to use instead of the default for the status (1000-1999 for FAILED_PRECONDITION / ABORTED, 4003 for PERMISSION_DENIED). */
  ERROR_CODE: 'x-s2sp-error-code',
  RECOVERY_HINT: 'x-s2sp-recovery-hint',
  /** Which hop ran out of time, for DEADLINE_EXCEEDED. */
  DEADLINE_HOP: 'x-s2sp-deadline-hop',
  /** The scopes the caller lacks, space-separated (as in an OAuth `scope`), for PERMISSION_DENIED. */
  MISSING_SCOPES: 'x-s2sp-missing-scopes',
  /** Seconds to wait, for RESOURCE_EXHAUSTED. */
  RETRY_AFTER: 'retry-after',
  TRACE_ID: 'x-trace-id',
  TRACEPARENT: 'traceparent',
} as const;
