import { Inject, Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonRpcError, RECOVERY_HINT } from '@s2sp/json-rpc';
import { JsonRpcErrorCode } from '@s2sp/json-rpc/internal';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { IDEMPOTENCY_KEY_PARAM } from './idempotency-key.decorator';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency-store';

/** One call that carries an idempotency_key. */
export interface IdempotentCall {
  keyHash: string;
  method: string;
  requestHash: string;
  /** The client's key, for error messages. */
  idempotencyKey: string;
  /** Absolute deadline of the call (ms epoch): a duplicate waits for the first call's outcome until then. */
  deadline: number;
  signal: AbortSignal;
}

/**
 * An IN_PROGRESS record outlives its call's deadline by this much before a retry
 * may take it over: only a gateway that died mid-call leaves one behind.
 */
const ABANDONED_CLAIM_GRACE_MS = 5_000;

/**
 * A waiting duplicate gives up this long before its deadline, so that the client
 * reads "still in progress" rather than a bare deadline error.
 */
const GIVE_UP_BEFORE_DEADLINE_MS = 50;

/**
 * Runs a state-changing call at most once per idempotency key (libs/gateway/README.md,
 * "Cross-cutting behaviour"):
 * - first call: an IN_PROGRESS record is inserted (the primary key lets only one
 *   of concurrent duplicates in), the handler runs, its result is stored as
 *   COMPLETED for the TTL; if it fails, the record is removed so a retry can run;
 * - a retry with the same params gets the stored result without the handler running;
 * - a duplicate that arrives while the first still runs waits for its result,
 *   up to its own deadline (then -32002 "still in progress");
 * - the same key with different params is -32602 naming idempotency_key.
 */
@Injectable()
export class IdempotentExecution {
  private readonly logger = new Logger('Idempotency');

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The handler's result, or the stored result of the first call with the same key. */
  async execute(call: IdempotentCall, handler: () => Promise<unknown>): Promise<unknown> {
    for (;;) {
      if (call.signal.aborted) throw call.signal.reason;
      const claimed = await this.guarded(() =>
        this.store.claim({
          keyHash: call.keyHash,
          method: call.method,
          requestHash: call.requestHash,
          expiresAt: new Date(call.deadline + ABANDONED_CLAIM_GRACE_MS),
        }),
      );
      if (claimed) return this.runFirst(call, handler);
      const outcome = await this.awaitFirst(call);
      if (outcome.kind === 'completed') return outcome.result;
      // The first call failed (or its record expired): run it ourselves.
    }
  }

  private async runFirst(call: IdempotentCall, handler: () => Promise<unknown>): Promise<unknown> {
    let result: unknown;
    try {
      result = await handler();
    } catch (error) {
      await this.store.release(call.keyHash).catch((releaseError: unknown) => this.warn('release', call, releaseError));
      throw error;
    }
    try {
      await this.store.complete(call.keyHash, result, new Date(Date.now() + this.config.idempotency.ttlMs));
    } catch (storeError) {
      // The call took effect: answer it. Without a stored result a retry would wait on a
      // record that never completes, so remove the claim instead.
      this.warn('store the result of', call, storeError);
      await this.store.release(call.keyHash).catch(() => undefined);
    }
    return result;
  }

  /** Waits until the record for the key is COMPLETED (its result) or gone/expired (retry). */
  private async awaitFirst(call: IdempotentCall): Promise<{ kind: 'completed'; result: unknown } | { kind: 'retry' }> {
    const { pollIntervalMs } = this.config.idempotency;
    for (;;) {
      const record = await this.guarded(() => this.store.find(call.keyHash));
      const now = new Date();
      if (!record) return { kind: 'retry' };
      if (record.expiresAt <= now) {
        await this.guarded(() => this.store.deleteIfExpired(call.keyHash, now));
        return { kind: 'retry' };
      }
      if (record.requestHash !== call.requestHash) throw keyReusedError();
      if (record.state === 'COMPLETED') return { kind: 'completed', result: record.result };
      const waitable = call.deadline - GIVE_UP_BEFORE_DEADLINE_MS - Date.now();
      if (waitable <= 0) throw stillInProgressError(call.idempotencyKey);
      await sleep(Math.min(pollIntervalMs, waitable), undefined, { signal: call.signal }).catch(() => {
        throw call.signal.reason;
      });
    }
  }

  private async guarded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      this.logger.error('idempotency store failed', error instanceof Error ? error.stack : String(error));
      throw new JsonRpcError(JsonRpcErrorCode.UPSTREAM_UNAVAILABLE, 'idempotency store unavailable', {
        downstream: 'idempotency_store',
      });
    }
  }

  private warn(what: string, call: IdempotentCall, error: unknown): void {
    this.logger.warn(
      `could not ${what} idempotent ${call.method} call: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

function keyReusedError(): JsonRpcError {
  return JsonRpcError.invalidParams(
    [
      {
        path: IDEMPOTENCY_KEY_PARAM,
        constraints: {
          idempotencyKeyReused: `${IDEMPOTENCY_KEY_PARAM} was already used for a request with different params`,
        },
      },
    ],
    `Invalid params: ${IDEMPOTENCY_KEY_PARAM} was already used for a request with different params`,
  );
}

function stillInProgressError(idempotencyKey: string): JsonRpcError {
  return new JsonRpcError(
    JsonRpcErrorCode.REQUEST_IN_PROGRESS,
    'A request with this idempotency_key is still in progress',
    {
      [IDEMPOTENCY_KEY_PARAM]: idempotencyKey,
      retry_after: 1,
      recovery_hint: RECOVERY_HINT.RETRY_AFTER,
    },
  );
}
