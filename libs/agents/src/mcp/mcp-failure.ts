import {
  InsufficientScopeError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import { AuthJsonRpcCode, isValidScope, splitScopes } from '@s2sp/auth/internal';
import { abortReason } from '../common/abort';
import { describeError, sanitizeText } from '../common/redact';
import {
  DEADLINE_HOP,
  DeadlineExceededError,
  McpRequestRejectedError,
  McpServerUnavailableError,
  ToolCallCancelledError,
} from './tool-call-errors';

/** HTTP statuses that refuse a request for its size (413 Content Too Large, 414 URI Too Long). */
const REQUEST_TOO_LARGE: ReadonlySet<number> = new Set([413, 414]);

export interface McpFailureContext {
  serverId: string;
  signal?: AbortSignal;
  startedAt: number;
  timeoutMs: number;
}

/**
 * Turns whatever the MCP client threw into one of the agents' call errors:
 * - the caller aborted → ToolCallCancelledError;
 * - our request timeout fired → DeadlineExceededError (hop "mcp");
 * - the server answered with a JSON-RPC error, refused the request as too
 *   large (HTTP 413/414) or for a scope the caller's token lacks (HTTP 403
 *   insufficient_scope) → McpRequestRejectedError (the caller's; no breaker failure);
 * - anything else (refused connection, reset, HTTP 5xx, lost connection) →
 *   McpServerUnavailableError.
 * The MCP client reports an abort as a RequestTimeout error too, so the
 * signal is checked first.
 */
export function translateMcpFailure(error: unknown, context: McpFailureContext): Error {
  if (
    error instanceof DeadlineExceededError ||
    error instanceof McpServerUnavailableError ||
    error instanceof ToolCallCancelledError ||
    error instanceof McpRequestRejectedError
  ) {
    return error;
  }
  const server = `MCP server "${context.serverId}"`;
  if (context.signal?.aborted) {
    return new ToolCallCancelledError(
      `the call to ${server} was cancelled: ${sanitizeText(abortReason(context.signal).message)}`,
    );
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new DeadlineExceededError(DEADLINE_HOP.MCP, `${server} did not answer within ${context.timeoutMs} ms`);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return new McpServerUnavailableError(context.serverId, `${server} closed the connection`);
  }
  if (error instanceof ProtocolError) {
    return new McpRequestRejectedError(
      context.serverId,
      error.code,
      `${server} refused the request: ${sanitizeText(error.message)}`,
      missingScopesOf(error.data),
    );
  }
  if (error instanceof InsufficientScopeError) {
    const required = missingScopesOf({ missing_scopes: splitScopes(error.requiredScope ?? '') });
    return new McpRequestRejectedError(
      context.serverId,
      AuthJsonRpcCode.INSUFFICIENT_SCOPE,
      `${server} refused the request: the token lacks ${required.length > 0 ? required.join(' ') : 'a required scope'}`,
      required,
    );
  }
  if (error instanceof SdkHttpError && REQUEST_TOO_LARGE.has(error.status)) {
    // The caller's arguments are too large for the server: the caller's problem, not the server's health.
    return new McpRequestRejectedError(
      context.serverId,
      ProtocolErrorCode.InvalidParams,
      `${server} refused the request as too large (HTTP ${error.status})`,
    );
  }
  if (error instanceof SdkHttpError) {
    return new McpServerUnavailableError(context.serverId, `${server} answered with HTTP ${error.status}`);
  }
  if (isInvalidAnswer(error)) {
    return new McpRequestRejectedError(
      context.serverId,
      ProtocolErrorCode.InternalError,
      `${server} sent an answer that is not valid MCP`,
    );
  }
  return new McpServerUnavailableError(context.serverId, `${server} is not reachable: ${describeError(error)}`);
}

/** The most scopes of a refusal passed on; more is not a refusal any caller could act on. */
const MAX_MISSING_SCOPES = 64;

/** `data.missing_scopes` of an MCP server's refusal, keeping only well-formed scope names (it comes from the network). */
function missingScopesOf(data: unknown): string[] {
  const scopes = (data as { missing_scopes?: unknown } | null | undefined)?.missing_scopes;
  if (!Array.isArray(scopes)) return [];
  return [...new Set(scopes.filter(isValidScope))].slice(0, MAX_MISSING_SCOPES);
}

/** Failures that say something about the server's health and so count against its circuit breaker. */
export function isBreakerFailure(error: unknown): boolean {
  return error instanceof DeadlineExceededError || error instanceof McpServerUnavailableError;
}

/** The client refused the server's answer: it fails the MCP schema. */
function isInvalidAnswer(error: unknown): boolean {
  if (error instanceof SdkError) return error.code === SdkErrorCode.InvalidResult;
  return error instanceof Error && (error.name === 'ZodError' || error.name === '$ZodError');
}
