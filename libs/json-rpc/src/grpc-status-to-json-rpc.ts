import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { JsonRpcError, type JsonRpcErrorData } from './json-rpc-error';
import { JsonRpcErrorCode } from './json-rpc-error-codes';
import { GRPC_ERROR_METADATA } from '@s2sp/contracts';
import { splitScopes } from '@s2sp/auth/internal';

export { GRPC_ERROR_METADATA };

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Maps a gRPC status from an internal call to the JSON-RPC error the client sees.
 * `details` reaches the client only for statuses whose details are meant for the
 * caller (bad arguments, auth, quota, precondition); INTERNAL, UNKNOWN, DATA_LOSS
 * and the rest become a bare -32603.
 * @public
 */
export function grpcStatusToJsonRpc(status: GrpcStatus, details?: string, metadata?: Metadata): JsonRpcError {
  const meta = readMetadata(metadata);
  const base: JsonRpcErrorData = {};
  if (meta.traceId) base.trace_id = meta.traceId;
  if (meta.recoveryHint) base.recovery_hint = meta.recoveryHint;
  const reason = details?.trim() ? { reason: details.trim() } : {};

  switch (status) {
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.NOT_FOUND:
    case GrpcStatus.ALREADY_EXISTS: // e.g. a resubmitted task_id: the caller's params are at fault
      return new JsonRpcError(JsonRpcErrorCode.INVALID_PARAMS, undefined, { ...base, ...reason });
    case GrpcStatus.DEADLINE_EXCEEDED:
      return JsonRpcError.deadlineExceeded(meta.deadlineHop ?? 'upstream', base);
    case GrpcStatus.UNAUTHENTICATED:
      return JsonRpcError.unauthenticated(undefined, { ...base, ...reason });
    case GrpcStatus.PERMISSION_DENIED:
      return meta.errorCode === JsonRpcErrorCode.APPROVAL_REQUIRED
        ? JsonRpcError.approvalRequired({ ...base, ...reason })
        : JsonRpcError.insufficientScope([], {
            ...base,
            ...reason,
            ...(meta.missingScopes.length > 0 ? { missing_scopes: meta.missingScopes } : {}),
          });
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return JsonRpcError.rateLimited(meta.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS, { ...base, ...reason });
    case GrpcStatus.UNAVAILABLE:
      return JsonRpcError.upstreamUnavailable({
        ...base,
        ...(meta.retryAfter === undefined ? {} : { retry_after: meta.retryAfter }),
      });
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.ABORTED: {
      const fallback =
        status === GrpcStatus.FAILED_PRECONDITION
          ? JsonRpcErrorCode.PRECONDITION_FAILED
          : JsonRpcErrorCode.EXECUTION_ABORTED;
      const code =
        meta.errorCode !== undefined && meta.errorCode >= 1000 && meta.errorCode <= 1999 ? meta.errorCode : fallback;
      const message =
        details?.trim() || (status === GrpcStatus.ABORTED ? 'Agent execution aborted' : 'Agent precondition failed');
      return new JsonRpcError(code, message, base);
    }
    default:
      return new JsonRpcError(JsonRpcErrorCode.INTERNAL_ERROR, undefined, base);
  }
}

/**
 * True for errors produced by @grpc/grpc-js clients (ServiceError / StatusObject shape).
 * @internal
 */
export function isGrpcServiceError(
  error: unknown,
): error is { code: GrpcStatus; details?: string; metadata?: Metadata } {
  if (error === null || typeof error !== 'object') return false;
  const candidate = error as { code?: unknown; metadata?: { get?: unknown } };
  // Duck-typed: a second copy of @grpc/grpc-js in node_modules would defeat instanceof.
  return (
    typeof candidate.code === 'number' &&
    Number.isInteger(candidate.code) &&
    candidate.code >= 0 &&
    candidate.code <= 16 &&
    typeof candidate.metadata?.get === 'function'
  );
}

interface ErrorMetadata {
  errorCode?: number;
  recoveryHint?: string;
  deadlineHop?: string;
  retryAfter?: number;
  traceId?: string;
  missingScopes: string[];
}

/** More than any token carries; a longer list in a trailer is cut, not trusted to be whole. */
const MAX_MISSING_SCOPES = 256;

function readMetadata(metadata: Metadata | undefined): ErrorMetadata {
  if (!metadata) return { missingScopes: [] };
  const text = (key: string): string | undefined => {
    const [value] = metadata.get(key);
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const integer = (key: string): number | undefined => {
    const value = text(key);
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
  };
  const traceparent = /^[0-9a-f]{2}-([0-9a-f]{32})-/.exec(text(GRPC_ERROR_METADATA.TRACEPARENT) ?? '');
  return {
    errorCode: integer(GRPC_ERROR_METADATA.ERROR_CODE),
    recoveryHint: text(GRPC_ERROR_METADATA.RECOVERY_HINT),
    deadlineHop: text(GRPC_ERROR_METADATA.DEADLINE_HOP),
    retryAfter: integer(GRPC_ERROR_METADATA.RETRY_AFTER),
    traceId: text(GRPC_ERROR_METADATA.TRACE_ID) ?? traceparent?.[1],
    missingScopes: [...new Set(splitScopes(text(GRPC_ERROR_METADATA.MISSING_SCOPES) ?? ''))].slice(
      0,
      MAX_MISSING_SCOPES,
    ),
  };
}
