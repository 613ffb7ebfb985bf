import { HttpException, HttpStatus } from '@nestjs/common';
import { AuthError } from '@s2sp/auth';
import { RECOVERY_HINT } from '@s2sp/contracts';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@s2sp/platform/internal';
import { grpcStatusToJsonRpc, isGrpcServiceError } from './grpc-status-to-json-rpc';
import { JsonRpcError } from './json-rpc-error';
import { JsonRpcErrorCode } from './json-rpc-error-codes';

/** @public */
export interface MappedError {
  error: JsonRpcError;
  /** False when the exception was not meant for the client (a bug, a crash): log it. */
  expected: boolean;
}

/**
 * The one place where anything a handler throws becomes a JSON-RPC error.
 * A database that cannot be reached becomes -32001 (retry after data.retry_after seconds);
 * other unknown exceptions become -32603 with no message, stack or detail of their own.
 * @public
 */
export function toJsonRpcError(exception: unknown): MappedError {
  if (exception instanceof JsonRpcError) return { error: exception, expected: true };
  if (isGrpcServiceError(exception)) {
    const error = grpcStatusToJsonRpc(exception.code, exception.details, exception.metadata);
    return { error, expected: error.code !== JsonRpcErrorCode.INTERNAL_ERROR };
  }
  // Before HttpException (which AuthError also is): keeps 4003 and error.data.missing_scopes.
  if (exception instanceof AuthError) {
    return expected(new JsonRpcError(exception.jsonRpcCode, exception.message, { ...exception.details }));
  }
  if (exception instanceof HttpException) return fromHttpException(exception);
  // The handler's own database is down or restarting: the caller may retry; the log still says why.
  if (isDatabaseUnavailable(exception)) {
    const error = JsonRpcError.upstreamUnavailable({
      downstream: 'database',
      retry_after: DATABASE_RETRY_AFTER_SECONDS,
      recovery_hint: RECOVERY_HINT.RETRY_AFTER,
    });
    return { error, expected: false };
  }
  return { error: JsonRpcError.internalError(), expected: false };
}

/** Nest HTTP exceptions (e.g. ForbiddenException from a guard, ThrottlerException) keep their meaning. */
function fromHttpException(exception: HttpException): MappedError {
  const status = exception.getStatus();
  const reason = status < 500 ? { reason: exception.message } : {};
  switch (status) {
    case HttpStatus.BAD_REQUEST:
    case HttpStatus.NOT_FOUND:
    case HttpStatus.UNPROCESSABLE_ENTITY:
      return expected(new JsonRpcError(JsonRpcErrorCode.INVALID_PARAMS, undefined, reason));
    case HttpStatus.UNAUTHORIZED:
      return expected(JsonRpcError.unauthenticated(undefined, reason));
    case HttpStatus.FORBIDDEN:
      return expected(JsonRpcError.insufficientScope([], reason));
    case HttpStatus.TOO_MANY_REQUESTS:
      return expected(JsonRpcError.rateLimited(retryAfterSeconds(exception)));
    case HttpStatus.REQUEST_TIMEOUT:
    case HttpStatus.GATEWAY_TIMEOUT:
      return expected(JsonRpcError.deadlineExceeded('upstream'));
    case HttpStatus.CONFLICT:
    case HttpStatus.PRECONDITION_FAILED:
      return expected(new JsonRpcError(JsonRpcErrorCode.PRECONDITION_FAILED, 'Agent precondition failed', reason));
    case HttpStatus.BAD_GATEWAY:
    case HttpStatus.SERVICE_UNAVAILABLE:
      return expected(JsonRpcError.upstreamUnavailable());
    default:
      return { error: JsonRpcError.internalError(), expected: status < 500 };
  }
}

function expected(error: JsonRpcError): MappedError {
  return { error, expected: true };
}

function retryAfterSeconds(exception: HttpException): number {
  const response = exception.getResponse();
  const value =
    typeof response === 'object' && response !== null ? (response as { retryAfter?: unknown }).retryAfter : undefined;
  return typeof value === 'number' && value > 0 ? Math.ceil(value) : 1;
}
