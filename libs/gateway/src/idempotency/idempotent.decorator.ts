import { UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * For state-changing JSON-RPC methods whose params DTO has an optional
 * idempotency_key: a retry with the same key gets the first call's result.
 */
export function Idempotent(): MethodDecorator & ClassDecorator {
  return UseInterceptors(IdempotencyInterceptor);
}
