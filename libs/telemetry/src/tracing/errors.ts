import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { redactTokens } from '@s2sp/auth';
import { TelemetryAttributes } from '../semantics/attributes';

/**
 * Unified error code of an exception: what the platform would answer the caller with.
 * @public
 */
export type ErrorCode = string | number;

/**
 * Resolves the unified code of an exception; apps may pass their own (e.g. the gateway's toJsonRpcError).
 * @public
 */
export type ErrorCodeResolver = (error: unknown) => ErrorCode;

/** Trailing-metadata key the agents put the platform code in (see libs/auth GrpcAuthGuard). */
const GRPC_ERROR_CODE_METADATA = 'x-s2sp-error-code';

/**
 * Best-effort unified code of an exception, without knowing its class:
 * `x-s2sp-error-code` in gRPC metadata, then `jsonRpcCode` (auth errors),
 * then an RpcException's error object, then `code` (JSON-RPC, gRPC status,
 * S2SP codes such as RESOURCE_GONE), then an HttpException's status.
 * `INTERNAL` when nothing says more.
 * @public
 */
export function errorCodeOf(error: unknown, depth = 0): ErrorCode {
  if (typeof error !== 'object' || error === null || depth > 2) return 'INTERNAL';
  const value = error as {
    metadata?: { get?: (key: string) => unknown[] };
    jsonRpcCode?: unknown;
    code?: unknown;
    getError?: () => unknown;
    getStatus?: () => unknown;
  };
  const fromMetadata =
    typeof value.metadata?.get === 'function' ? value.metadata.get(GRPC_ERROR_CODE_METADATA)[0] : undefined;
  if (typeof fromMetadata === 'string' && fromMetadata !== '') return numericIfInteger(fromMetadata);
  if (isCode(value.jsonRpcCode)) return value.jsonRpcCode;
  if (typeof value.getError === 'function') {
    const inner = value.getError();
    if (typeof inner === 'object' && inner !== null) return errorCodeOf(inner, depth + 1);
  }
  if (isCode(value.code)) return value.code;
  if (typeof value.getStatus === 'function') {
    const status = value.getStatus();
    if (typeof status === 'number') return `HTTP_${status}`;
  }
  return 'INTERNAL';
}

/**
 * Marks `span` failed: status ERROR, `s2sp.error_code`, and an exception
 * event whose message and stack went through redactTokens (a token in an
 * error message must not reach the trace backend).
 * @public
 */
export function recordError(span: Span, error: unknown, code: ErrorCode = errorCodeOf(error)): void {
  if (!span.isRecording()) return;
  span.setAttribute(TelemetryAttributes.ERROR_CODE, code);
  const name = error instanceof Error ? error.name : 'Error';
  const message = redactTokens(
    error instanceof Error ? error.message : typeof error === 'string' ? error : 'non-Error thrown',
  );
  span.recordException({
    name,
    message,
    ...(error instanceof Error && error.stack ? { stack: redactTokens(error.stack) } : {}),
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * Marks `span` failed with a code and message only (e.g. an MCP tool error result, a 4xx answer).
 * @public
 */
export function recordFailure(span: Span, code: ErrorCode, message?: string): void {
  if (!span.isRecording()) return;
  span.setAttribute(TelemetryAttributes.ERROR_CODE, code);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(message ? { message: redactTokens(message) } : {}) });
}

function isCode(value: unknown): value is ErrorCode {
  return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value !== '');
}

function numericIfInteger(text: string): ErrorCode {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
