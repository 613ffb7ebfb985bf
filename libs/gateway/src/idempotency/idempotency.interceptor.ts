import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { defer, lastValueFrom, type Observable } from 'rxjs';
import { type JsonRpcCallContext } from '@s2sp/json-rpc';
import { JSON_RPC_CONTEXT_TYPE } from '@s2sp/json-rpc/internal';
import { callerKey } from '../caller/caller-key';
import { IDEMPOTENCY_KEY_PARAM } from './idempotency-key.decorator';
import { idempotencyKeyHash, requestHash } from './idempotency-hashes';
import { IdempotentExecution } from './idempotent-execution.service';

/**
 * Makes a JSON-RPC method idempotent for calls whose params carry an
 * idempotency_key (see IdempotentExecution). Calls without a key run as usual.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly execution: IdempotentExecution) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT_TYPE) return next.handle();
    const params = context.getArgByIndex<Record<string, unknown> | undefined>(0);
    const ctx = context.getArgByIndex<JsonRpcCallContext>(1);
    const idempotencyKey = params?.[IDEMPOTENCY_KEY_PARAM];
    if (typeof idempotencyKey !== 'string') return next.handle();
    return defer(() =>
      this.execution.execute(
        {
          keyHash: idempotencyKeyHash(callerKey(ctx), ctx.method, idempotencyKey),
          method: ctx.method,
          requestHash: requestHash(params),
          idempotencyKey,
          deadline: ctx.deadline,
          signal: ctx.signal,
        },
        () => lastValueFrom(next.handle(), { defaultValue: null }),
      ),
    );
  }
}
