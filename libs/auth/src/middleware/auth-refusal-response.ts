import type { ServerResponse } from 'node:http';
import type { AuthError } from '../errors/auth-error';

/**
 * Answers a refused HTTP request: the error's status, its `WWW-Authenticate` challenge when there
 * is one, and a JSON body — a JSON-RPC error response carrying `jsonRpcId` when one is given (an
 * MCP or JSON-RPC route; `null` when the request's id is unknown), else the error's own JSON.
 */
export function writeAuthRefusal(
  response: ServerResponse,
  error: AuthError,
  options: { challenge?: string; jsonRpcId?: string | number | null },
): void {
  const body =
    options.jsonRpcId === undefined
      ? error.toJSON()
      : {
          jsonrpc: '2.0',
          error: { code: error.jsonRpcCode, message: error.message, data: { ...error.details } },
          id: options.jsonRpcId,
        };
  const text = JSON.stringify(body);
  response.writeHead(error.getStatus(), {
    ...(options.challenge ? { 'www-authenticate': options.challenge } : {}),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
