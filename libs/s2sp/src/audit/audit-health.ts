import { type AuditWriteStatus } from '@s2sp/auth';
import { hasAuditWriteStatus } from '@s2sp/auth/internal';

/**
 * The audit trails of one app, in a health report.
 * @internal
 */
export interface AuditHealth {
  /** `failing` when any trail's last write failed (its records are buffered and retried). */
  status: 'ok' | 'failing';
  trails: Record<string, AuditWriteStatus>;
}

/**
 * The write status of each sink that reports one (e.g. the batched decision
 * sink, the data-plane fetch audit); sinks that write synchronously and fail
 * their caller instead (blocking delivery, log sinks) are left out.
 * @internal
 */
export function auditHealthOf(sinks: Record<string, unknown>): AuditHealth {
  const trails: Record<string, AuditWriteStatus> = {};
  for (const [name, sink] of Object.entries(sinks)) {
    if (hasAuditWriteStatus(sink)) trails[name] = sink.auditWriteStatus();
  }
  const failing = Object.values(trails).some((trail) => trail.status === 'failing');
  return { status: failing ? 'failing' : 'ok', trails };
}
