/**
 * Token of the {@link IdempotencyStore} the gateway uses.
 * @public
 */
export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');

/** @public */
export type IdempotencyState = 'IN_PROGRESS' | 'COMPLETED';

/** @public */
export interface IdempotencyRecordView {
  keyHash: string;
  method: string;
  requestHash: string;
  state: IdempotencyState;
  /** The stored JSON-RPC result (COMPLETED only). */
  result: unknown;
  expiresAt: Date;
}

/** @public */
export interface NewIdempotencyRecord {
  keyHash: string;
  method: string;
  requestHash: string;
  /** When an abandoned IN_PROGRESS record (the gateway died mid-call) stops blocking retries. */
  expiresAt: Date;
}

/**
 * Where first responses to idempotent calls are kept. `claim` must be atomic:
 * of concurrent claims for one key exactly one succeeds.
 * @public
 */
export interface IdempotencyStore {
  /** Inserts an IN_PROGRESS record; false when a record for the key already exists. */
  claim(record: NewIdempotencyRecord): Promise<boolean>;
  find(keyHash: string): Promise<IdempotencyRecordView | undefined>;
  /** IN_PROGRESS -> COMPLETED with the result, kept until expiresAt. */
  complete(keyHash: string, result: unknown, expiresAt: Date): Promise<void>;
  /** Deletes the record if it is still IN_PROGRESS (the call failed: a retry may run it again). */
  release(keyHash: string): Promise<void>;
  /** Deletes the record if it expired by `now`. */
  deleteIfExpired(keyHash: string, now: Date): Promise<void>;
  /** Deletes every record that expired by `now`; returns how many. */
  sweepExpired(now: Date): Promise<number>;
}
