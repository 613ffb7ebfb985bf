import { AuthJsonRpcCode } from '@s2sp/auth/internal';
export { DEADLINE_HOP, DeadlineExceededError } from '../common/deadline-exceeded-error';

/**
 * Why a tool call did not produce an MCP result (and DeadlineExceededError, from common/). The gRPC layer maps each to
 * a status (grpc/grpc-errors.ts), the task runtime to an ErrorInfo
 * (tasks/agent-errors.ts). Messages are written for the caller and never
 * contain credentials or resource_urls.
 */

/** The MCP server cannot be reached, or its circuit is open (then retryAfterMs is set). */
export class McpServerUnavailableError extends Error {
  constructor(
    readonly serverId: string,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'McpServerUnavailableError';
  }
}

export class UnknownMcpServerError extends Error {
  constructor(
    readonly serverId: string,
    readonly knownServers: readonly string[],
  ) {
    super(`server: no MCP server "${serverId}" is configured (known: ${knownServers.join(', ') || 'none'})`);
    this.name = 'UnknownMcpServerError';
  }
}

export class ToolNotFoundError extends Error {
  constructor(
    readonly toolName: string,
    readonly serverId: string | undefined,
    readonly unreachableServers: readonly string[] = [],
  ) {
    const where = serverId ? `on MCP server "${serverId}"` : 'on any MCP server';
    const unreachable = unreachableServers.length > 0 ? ` (not reachable now: ${unreachableServers.join(', ')})` : '';
    super(`tool_name: no tool "${toolName}" ${where}${unreachable}`);
    this.name = 'ToolNotFoundError';
  }
}

export class AmbiguousToolError extends Error {
  constructor(
    readonly toolName: string,
    readonly servers: readonly string[],
  ) {
    super(
      `tool_name: "${toolName}" is offered by several MCP servers (${servers.join(', ')}); set server to one of them`,
    );
    this.name = 'AmbiguousToolError';
  }
}

/** The call was aborted by its caller (gRPC cancellation, hard task cancel). */
export class ToolCallCancelledError extends Error {
  constructor(message = 'the tool call was cancelled') {
    super(message);
    this.name = 'ToolCallCancelledError';
  }
}

/** The MCP server answered the request with a JSON-RPC error (it is up; the request was refused). */
export class McpRequestRejectedError extends Error {
  constructor(
    readonly serverId: string,
    readonly mcpCode: number,
    message: string,
    /** The scopes the server said the caller lacks (its error's `data.missing_scopes`), for a 4002. */
    readonly missingScopes: readonly string[] = [],
  ) {
    super(message);
    this.name = 'McpRequestRejectedError';
  }

  /** Whether the server's auth layer refused the caller's token (4001/4002/4003) rather than the request itself. */
  get isAuthRefusal(): boolean {
    return AUTH_REFUSAL_CODES.has(this.mcpCode);
  }
}

const AUTH_REFUSAL_CODES: ReadonlySet<number> = new Set(Object.values(AuthJsonRpcCode));
