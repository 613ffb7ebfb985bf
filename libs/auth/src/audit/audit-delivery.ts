import { definedOnly } from '../config/defined-only';

/**
 * How decisions reach the audit sink.
 * - `blocking`: each decision is stored before the call it allows goes on.
 * - `batched` (default): decisions are queued and stored together, at most
 *   `flushIntervalMs` later (or as soon as `maxBatchSize` are waiting), and on
 *   shutdown. A crash can lose the last interval's decisions; when the sink
 *   cannot keep up (`maxPending` waiting) callers wait for it, and fail if it
 *   fails, so nothing is dropped silently. A failed write is retried with
 *   backoff (up to `maxRetryDelayMs` apart) while its decisions stay queued. Kubernetes' audit webhook makes
 *   the same trade by default.
 * @public
 */
export type AuditDeliveryMode = 'blocking' | 'batched';

/** @public */
export interface AuditDeliveryOptions {
  mode?: AuditDeliveryMode;
  /** Longest a decision waits in the queue, ms (default 100). */
  flushIntervalMs?: number;
  /** Most decisions stored in one write (default 500). */
  maxBatchSize?: number;
  /** Queue length at which `record` waits for the sink (default 10,000). */
  maxPending?: number;
  /** Longest delay between retries of a failed write, ms (default 5,000; the delay doubles from flushIntervalMs). */
  maxRetryDelayMs?: number;
}

/** @public */
export type ResolvedAuditDelivery = Required<AuditDeliveryOptions>;

export const DEFAULT_AUDIT_DELIVERY: ResolvedAuditDelivery = Object.freeze({
  mode: 'batched',
  flushIntervalMs: 100,
  maxBatchSize: 500,
  maxPending: 10_000,
  maxRetryDelayMs: 5_000,
});

export const AUDIT_DELIVERY_MODES: readonly AuditDeliveryMode[] = ['blocking', 'batched'];

/** Allowed range of each numeric setting (options and environment alike). */
export const AUDIT_DELIVERY_LIMITS = Object.freeze({
  flushIntervalMs: { min: 1, max: 60_000 },
  maxBatchSize: { min: 1, max: 10_000 },
  maxPending: { min: 1, max: 1_000_000 },
  maxRetryDelayMs: { min: 1, max: 600_000 },
});

/** Fills in defaults; throws a RangeError naming the option on a bad value. */
export function resolveAuditDelivery(options: AuditDeliveryOptions = {}): ResolvedAuditDelivery {
  const resolved: ResolvedAuditDelivery = { ...DEFAULT_AUDIT_DELIVERY, ...definedOnly({ ...options }) };
  if (!AUDIT_DELIVERY_MODES.includes(resolved.mode))
    throw new RangeError(`Auth option auditDelivery.mode must be one of ${AUDIT_DELIVERY_MODES.join(', ')}`);
  for (const [name, { min, max }] of Object.entries(AUDIT_DELIVERY_LIMITS) as Array<
    [keyof typeof AUDIT_DELIVERY_LIMITS, { min: number; max: number }]
  >) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new RangeError(`Auth option auditDelivery.${name} must be an integer from ${min} to ${max}`);
  }
  if (resolved.maxPending < resolved.maxBatchSize)
    throw new RangeError('Auth option auditDelivery.maxPending must be at least auditDelivery.maxBatchSize');
  return Object.freeze(resolved);
}
