import { Logger } from '@nestjs/common';
import { Metadata, status } from '@grpc/grpc-js';
import { RpcException } from '@nestjs/microservices';
import { AuthError, DelegationRefusedError } from '@s2sp/auth';
import { AuthJsonRpcCode } from '@s2sp/auth/internal';
import { toRpcException } from '@s2sp/grpc';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@s2sp/platform/internal';
import { GRPC_ERROR_METADATA, AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import {
  AlreadyExistsError,
  ApprovalRequiredError,
  CapacityExhaustedError,
  InvalidRequestError,
  NotFoundError,
  PreconditionFailedError,
  TaskOwnerUnreachableError,
} from '../common/request-errors';
import {
  AmbiguousToolError,
  DeadlineExceededError,
  McpRequestRejectedError,
  McpServerUnavailableError,
  ToolCallCancelledError,
  ToolNotFoundError,
  UnknownMcpServerError,
} from '../mcp/tool-call-errors';

export interface GrpcErrorDetails {
  /** x-s2sp-deadline-hop, for DEADLINE_EXCEEDED. */
  deadlineHop?: string;
  /** retry-after (whole seconds, at least 1), for UNAVAILABLE / RESOURCE_EXHAUSTED. */
  retryAfterMs?: number;
  /** x-s2sp-error-code: the platform code (1000-1999 agent errors, 4003 approval). */
  errorCode?: number;
  /** x-s2sp-recovery-hint. */
  recoveryHint?: string;
  /** x-trace-id. */
  traceId?: string;
  /** x-s2sp-missing-scopes, for PERMISSION_DENIED. */
  missingScopes?: readonly string[];
}

const logger = new Logger('AgentsGrpc');
const APPROVAL_REQUIRED = 4003;
/** x-s2sp-recovery-hint of INVALID_ARGUMENT: the caller must change the request. */
export const INVALID_INPUT_HINT = 'FIX_REQUEST';

/**
 * A gRPC error as Nest's RPC exception filter hands it to grpc-js: status
 * code, details (the message) and trailing metadata with the keys of
 * GRPC_ERROR_METADATA, which the gateway reads.
 */
export function grpcError(code: status, message: string, details: GrpcErrorDetails = {}): RpcException {
  const metadata = new Metadata();
  if (details.deadlineHop) metadata.set(GRPC_ERROR_METADATA.DEADLINE_HOP, details.deadlineHop);
  if (details.retryAfterMs !== undefined) {
    metadata.set(GRPC_ERROR_METADATA.RETRY_AFTER, String(Math.max(1, Math.ceil(details.retryAfterMs / 1000))));
  }
  if (details.errorCode !== undefined) metadata.set(GRPC_ERROR_METADATA.ERROR_CODE, String(details.errorCode));
  if (details.recoveryHint) metadata.set(GRPC_ERROR_METADATA.RECOVERY_HINT, details.recoveryHint);
  if (details.traceId) metadata.set(GRPC_ERROR_METADATA.TRACE_ID, details.traceId);
  if (details.missingScopes?.length) metadata.set(GRPC_ERROR_METADATA.MISSING_SCOPES, details.missingScopes.join(' '));
  return new RpcException({ code, message, details: message, metadata });
}

/** Maps the agents' error classes to gRPC statuses; anything unexpected is logged and becomes INTERNAL. */
export function toGrpcError(error: unknown, traceId?: string): RpcException {
  if (error instanceof RpcException) return error;
  if (error instanceof AuthError) return toRpcException(error) as RpcException;
  const trace = { traceId };
  if (error instanceof InvalidRequestError)
    return grpcError(status.INVALID_ARGUMENT, error.message, { ...trace, recoveryHint: INVALID_INPUT_HINT });
  if (error instanceof DelegationRefusedError) {
    return grpcError(status.DEADLINE_EXCEEDED, error.message, {
      ...trace,
      deadlineHop: 'agents',
      recoveryHint: RECOVERY_HINT.RETRY_WITH_LONGER_DEADLINE,
    });
  }
  if (error instanceof DeadlineExceededError) {
    return grpcError(status.DEADLINE_EXCEEDED, error.message, {
      ...trace,
      deadlineHop: error.hop,
      recoveryHint: RECOVERY_HINT.RETRY_WITH_LONGER_DEADLINE,
    });
  }
  if (error instanceof McpServerUnavailableError) {
    return grpcError(status.UNAVAILABLE, error.message, {
      ...trace,
      retryAfterMs: error.retryAfterMs,
      recoveryHint: RECOVERY_HINT.RETRY_AFTER,
    });
  }
  if (error instanceof UnknownMcpServerError || error instanceof ToolNotFoundError || error instanceof NotFoundError) {
    return grpcError(status.NOT_FOUND, error.message, trace);
  }
  if (error instanceof AmbiguousToolError) {
    return grpcError(status.FAILED_PRECONDITION, error.message, {
      ...trace,
      errorCode: AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
      recoveryHint: RECOVERY_HINT.NAME_THE_SERVER,
    });
  }
  if (error instanceof PreconditionFailedError) {
    return grpcError(status.FAILED_PRECONDITION, error.message, {
      ...trace,
      errorCode: error.errorCode,
      recoveryHint: error.recoveryHint,
    });
  }
  if (error instanceof AlreadyExistsError) return grpcError(status.ALREADY_EXISTS, error.message, trace);
  if (error instanceof CapacityExhaustedError) {
    return grpcError(status.RESOURCE_EXHAUSTED, error.message, {
      ...trace,
      retryAfterMs: error.retryAfterSeconds * 1000,
    });
  }
  if (error instanceof TaskOwnerUnreachableError) {
    return grpcError(status.UNAVAILABLE, error.message, {
      ...trace,
      retryAfterMs: 1_000,
      recoveryHint: RECOVERY_HINT.RETRY_AFTER,
    });
  }
  if (error instanceof ApprovalRequiredError) {
    return grpcError(status.PERMISSION_DENIED, error.message, { ...trace, errorCode: APPROVAL_REQUIRED });
  }
  if (error instanceof ToolCallCancelledError) return grpcError(status.CANCELLED, error.message, trace);
  if (error instanceof McpRequestRejectedError) {
    const approval = error.mcpCode === AuthJsonRpcCode.APPROVAL_REQUIRED ? { errorCode: APPROVAL_REQUIRED } : {};
    return grpcError(statusForMcpCode(error.mcpCode), error.message, {
      ...trace,
      ...approval,
      missingScopes: error.missingScopes,
    });
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn(
      `The agents' database is unavailable: ${error instanceof Error ? error.message.trim() : String(error)}`,
    );
    return grpcError(status.UNAVAILABLE, "the agents' database is unavailable; retry shortly", {
      ...trace,
      retryAfterMs: DATABASE_RETRY_AFTER_SECONDS * 1000,
      recoveryHint: RECOVERY_HINT.RETRY_AFTER,
    });
  }
  logger.error(
    error instanceof Error ? `${error.name}: ${error.message}` : 'non-Error thrown',
    error instanceof Error ? error.stack : undefined,
  );
  return grpcError(status.INTERNAL, 'internal error in the agents', trace);
}

/** JSON-RPC error of an MCP server → gRPC status: bad params stay the caller's problem, an auth refusal stays a refusal. */
function statusForMcpCode(code: number): status {
  if (code === AuthJsonRpcCode.UNAUTHENTICATED) return status.UNAUTHENTICATED;
  if (code === AuthJsonRpcCode.INSUFFICIENT_SCOPE || code === AuthJsonRpcCode.APPROVAL_REQUIRED)
    return status.PERMISSION_DENIED;
  if (code === -32602) return status.INVALID_ARGUMENT;
  if (code === -32601) return status.UNIMPLEMENTED;
  if (code === -32600) return status.FAILED_PRECONDITION;
  return status.INTERNAL;
}
