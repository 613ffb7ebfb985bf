import { envInt, envOptional } from '@s2sp/platform';

/**
 * Limits of MCP over Streamable HTTP (`/mcp`), enforced by serveMcp.
 * @public
 */
export interface McpHttpLimits {
  /** Largest POST /mcp body, bytes (default 1 MiB): larger ones get 413 before the tool runs. */
  maxBodyBytes: number;
  /** A session with no request for this long is closed, ms (default 30 minutes). */
  sessionIdleTimeoutMs: number;
  /**
   * Most open sessions per caller (authenticated subject; every unauthenticated
   * caller shares one allowance). Default 16. At the limit, an `initialize`
   * closes the caller's least recently used idle session; if all are busy it is refused.
   */
  maxSessionsPerCaller: number;
  /**
   * The `retry` (ms) an SSE stream of a session announces in its first event,
   * the priming event: how long a client waits before reconnecting with
   * `Last-Event-ID` when the stream drops. Default 1 s.
   */
  sseRetryMs: number;
  /** Items per page of a paged list (`resources/list`), over HTTP and stdio alike. Default 50. */
  listPageSize: number;
  /**
   * How long an idle keep-alive connection stays open, ms (default 65 s). Node's own 5 s
   * races clients that reuse a pooled connection just as the server closes it (the
   * request then fails with ECONNRESET); a longer window makes that race rare.
   */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_MCP_HTTP_LIMITS: Readonly<McpHttpLimits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  sessionIdleTimeoutMs: 30 * 60_000,
  maxSessionsPerCaller: 16,
  sseRetryMs: 1000,
  listPageSize: 50,
  keepAliveTimeoutMs: 65_000,
});

/** Environment variable of each limit. */
export const MCP_HTTP_LIMIT_ENV: Readonly<Record<keyof McpHttpLimits, string>> = Object.freeze({
  maxBodyBytes: 'S2SP_MCP_MAX_BODY_BYTES',
  sessionIdleTimeoutMs: 'S2SP_MCP_SESSION_IDLE_TIMEOUT_MS',
  maxSessionsPerCaller: 'S2SP_MCP_MAX_SESSIONS_PER_CALLER',
  sseRetryMs: 'S2SP_MCP_SSE_RETRY_MS',
  listPageSize: 'S2SP_MCP_LIST_PAGE_SIZE',
  keepAliveTimeoutMs: 'S2SP_MCP_KEEP_ALIVE_TIMEOUT_MS',
});

/** The limits given, over the defaults; each must be a positive integer. */
export function resolveMcpHttpLimits(options: Partial<McpHttpLimits> = {}): McpHttpLimits {
  const limits = { ...DEFAULT_MCP_HTTP_LIMITS };
  for (const name of Object.keys(DEFAULT_MCP_HTTP_LIMITS) as Array<keyof McpHttpLimits>) {
    const given = options[name];
    if (given === undefined) continue;
    if (!Number.isSafeInteger(given) || given < 1) {
      throw new RangeError(`serveMcp option mcpLimits.${name} must be a positive integer; got ${String(given)}.`);
    }
    limits[name] = given;
  }
  return limits;
}

/**
 * The limits set by the S2SP_MCP_* variables (MCP_HTTP_LIMIT_ENV), for an app's
 * configuration to pass as serveMcp's `mcpLimits`; unset variables are left out.
 * A value that is not a positive integer throws, naming the variable.
 * @public
 */
export function mcpHttpLimitsFromEnv(): Partial<McpHttpLimits> {
  const limits: Partial<McpHttpLimits> = {};
  for (const name of Object.keys(MCP_HTTP_LIMIT_ENV) as Array<keyof McpHttpLimits>) {
    if (envOptional(MCP_HTTP_LIMIT_ENV[name]) !== undefined)
      limits[name] = envInt(MCP_HTTP_LIMIT_ENV[name], DEFAULT_MCP_HTTP_LIMITS[name], { min: 1 });
  }
  return limits;
}
