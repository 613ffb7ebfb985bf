import { AsyncLocalStorage } from 'node:async_hooks';
import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * The Authorization header of the MCP request being made in this async
 * context. One pooled MCP client serves every caller, so each tool call runs
 * inside {@link withMcpAuthorization} and the transport's fetch picks its own
 * caller's token, never another's.
 */
const currentAuthorization = new AsyncLocalStorage<string>();

export function withMcpAuthorization<T>(authorization: string | undefined, run: () => Promise<T>): Promise<T> {
  return authorization === undefined ? run() : currentAuthorization.run(authorization, run);
}

/** Runs `run` outside any caller's context (connecting, discovery): those requests use the connection's own credentials. */
export function withoutCallerAuthorization<T>(run: () => T): T {
  return currentAuthorization.exit(run);
}

/**
 * fetch for the MCP transport: the current call's Authorization header, or
 * else `fallback()` (the agents' discovery credential), or none; sent with
 * `base` (e.g. a fetch that adds the trace context headers).
 */
export function credentialedFetch(fallback: () => Promise<string | undefined>, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const authorization = currentAuthorization.getStore() ?? (await fallback());
    if (authorization === undefined) return base(url, init);
    const headers = new Headers(init?.headers);
    headers.set('authorization', authorization);
    return base(url, { ...init, headers });
  };
}
