import type { ServerResponse } from 'node:http';

/**
 * Answers an HTTP request on `/mcp` with a JSON-RPC error body (`id: null`),
 * the shape the MCP transport uses for its own HTTP-level refusals.
 */
export function sendJsonRpcHttpError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
