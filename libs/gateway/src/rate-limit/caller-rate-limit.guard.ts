import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { hash } from 'node:crypto';
import { JsonRpcError, RECOVERY_HINT, type JsonRpcCallContext } from '@s2sp/json-rpc';
import { JSON_RPC_CONTEXT_TYPE, JsonRpcErrorCode } from '@s2sp/json-rpc/internal';
import { callerKey } from '../caller/caller-key';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';

/** Name of the gateway's throttler in ThrottlerModule's storage. */
export const JSON_RPC_THROTTLER = 'json-rpc';

/**
 * Rate limit per caller and JSON-RPC method, counted in
 * @nestjs/throttler's storage. Applies to the 'json-rpc' context only: the
 * library's own ThrottlerGuard reads HTTP requests and cannot see a call
 * inside a batch. Over the limit: 5001 "Rate limit exceeded" with
 * data.retry_after (seconds until a call is allowed again). A storage that
 * cannot answer (Redis away) refuses the call as the upstream being
 * unavailable: calls are never let through uncounted.
 */
@Injectable()
export class CallerRateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT_TYPE) return true;
    const ctx = context.getArgByIndex<JsonRpcCallContext>(1);
    const { limit, windowMs } = this.config.rateLimit;
    const key = hash('sha256', JSON.stringify([callerKey(ctx), ctx.method]), 'hex');
    // blockDuration 0: a sliding window of windowMs; calls over the limit are not counted.
    const record = await this.storage.increment(key, windowMs, limit, 0, JSON_RPC_THROTTLER).catch((error: unknown) => {
      this.logger.error(`rate-limit storage failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new JsonRpcError(JsonRpcErrorCode.UPSTREAM_UNAVAILABLE, 'rate limit store unavailable', {
        downstream: 'rate_limit_store',
      });
    });
    if (!record.isBlocked) return true;
    throw JsonRpcError.rateLimited(Math.max(1, record.timeToBlockExpire), {
      method: ctx.method,
      limit,
      window_ms: windowMs,
      recovery_hint: RECOVERY_HINT.RETRY_AFTER,
    });
  }
}
