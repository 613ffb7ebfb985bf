import type { AuditEvent } from './audit-event';

/**
 * Injection token of the {@link AuditSink}.
 * @public
 */
export const AUDIT_SINK = 'S2SP_AUTH_AUDIT_SINK';

/**
 * Where decisions go. `record` is awaited: a sink that fails on an allow
 * decision fails the request (no unaudited access); on a deny it is logged and
 * the denial stands.
 * @public
 */
export interface AuditSink {
  record(event: AuditEvent): void | Promise<void>;
  /** Stores many events at once (one round trip); a batching delivery uses it when present. */
  recordMany?(events: readonly AuditEvent[]): Promise<void>;
  /** Resolves once every event recorded so far is stored (sinks that buffer). */
  flush?(): Promise<void>;
}
