import { JsonRpcErrorCode, STANDARD_ERROR_MESSAGES, isApplicationCode } from './json-rpc-error-codes';
import type { JsonRpcErrorObject } from './json-rpc.types';
import { defaultRecoveryHint, type RecoveryHintValue } from './recovery-hint';

/**
 * One invalid parameter, as reported in error.data.fields of a -32602 error.
 * @public
 */
export interface ParamViolation {
  /** Dotted path inside params, e.g. "constraints.max_steps" or "items[2].name". */
  path: string;
  /** Failed constraint name -> human-readable message, e.g. { isInt: "max_steps must be an integer number" }. */
  constraints: Record<string, string>;
}

/** @public */
export type JsonRpcErrorData = Record<string, unknown>;

/**
 * The error a JSON-RPC handler throws to answer with a specific code. Its message
 * and data are sent to the client verbatim, so never put internals in them.
 * @public
 */
export class JsonRpcError extends Error {
  override readonly name = 'JsonRpcError';

  constructor(
    readonly code: number,
    message: string = STANDARD_ERROR_MESSAGES[code] ?? 'Server error',
    readonly data?: JsonRpcErrorData,
  ) {
    super(message);
  }

  /** The wire form: adds trace_id when known and a default recovery_hint for application codes. */
  toErrorObject(traceId?: string): JsonRpcErrorObject {
    const data: JsonRpcErrorData = { ...this.data };
    const hint = defaultRecoveryHint(this.code);
    if (isApplicationCode(this.code) && data.recovery_hint === undefined && hint) data.recovery_hint = hint;
    if (traceId && data.trace_id === undefined) data.trace_id = traceId;
    const error: JsonRpcErrorObject = { code: this.code, message: this.message };
    if (Object.keys(data).length > 0) error.data = data;
    return error;
  }

  static parseError(): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.PARSE_ERROR);
  }

  static invalidRequest(message?: string, data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.INVALID_REQUEST, message, data);
  }

  static methodNotFound(): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.METHOD_NOT_FOUND);
  }

  static invalidParams(fields: ParamViolation[], message?: string): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.INVALID_PARAMS, message, { fields });
  }

  static internalError(): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.INTERNAL_ERROR);
  }

  /** hop names where the time ran out, e.g. "gateway.admission", "gateway.handler", "agent". */
  static deadlineExceeded(hop: string, data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.DEADLINE_EXCEEDED, 'Deadline exceeded', { hop, ...data });
  }

  static upstreamUnavailable(data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.UPSTREAM_UNAVAILABLE, 'Upstream service unavailable', data);
  }

  static unauthenticated(message = 'Authentication failed', data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.UNAUTHENTICATED, message, data);
  }

  static insufficientScope(requiredScopes: string[] = [], data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.INSUFFICIENT_SCOPE, 'Insufficient scope', {
      ...(requiredScopes.length > 0 ? { required_scopes: requiredScopes } : {}),
      ...data,
    });
  }

  static approvalRequired(data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.APPROVAL_REQUIRED, 'Approval required', data);
  }

  /** retryAfterSeconds goes to data.retry_after (seconds, like HTTP Retry-After). */
  static rateLimited(retryAfterSeconds: number, data?: JsonRpcErrorData): JsonRpcError {
    return new JsonRpcError(JsonRpcErrorCode.RATE_LIMITED, 'Rate limit exceeded', {
      retry_after: retryAfterSeconds,
      ...data,
    });
  }

  /** An agent execution error (1000-1999), e.g. 1003 recursion depth exceeded. */
  static agentExecution(
    code: number,
    message: string,
    data?: JsonRpcErrorData & { recovery_hint?: RecoveryHintValue },
  ): JsonRpcError {
    if (code < 1000 || code > 1999) throw new RangeError(`agent execution codes are 1000-1999, got ${code}`);
    return new JsonRpcError(code, message, data);
  }
}
