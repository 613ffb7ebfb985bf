import type { McpServer } from '@modelcontextprotocol/server';

/**
 * Makes `server`'s close build the SDK's "Connection closed" error (handed to whatever still
 * waits on the server) without a stack trace. A server is closed after every stateless request,
 * each of which has its own (2025-era requests without a session, and every 2026-era request),
 * and capturing that stack cost more than the rest of the close: about 5% of the CPU of a
 * stateless `tools/call` (bench/framework-overhead/README.md). The stack would only show the
 * close itself. What runs during the close (the server's `onclose` callbacks) builds its errors
 * without a stack too; the limit is restored before the close returns.
 */
export function withStacklessCloseError(server: McpServer): McpServer {
  const low = server.server as unknown as { _onclose?: () => void };
  const onclose = low._onclose;
  // The SDK's transport-close hook (protected, for subclasses); an SDK without it keeps its own close.
  if (typeof onclose !== 'function') return server;
  low._onclose = function (this: unknown) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      onclose.call(this);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  return server;
}
