import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonRpcHttpError } from './json-rpc-http-error';

/** JSON-RPC code of the MCP transport's HTTP-level refusals. */
const TRANSPORT_ERROR = -32000;
const PARSE_ERROR = -32700;

/**
 * Reads a POST /mcp body itself, at most `maxBytes` (declared Content-Length
 * checked before reading, a chunked body counted while reading), and leaves
 * the parsed JSON in `request.body`, which @rekog/mcp-nest uses instead of
 * reading the stream without a limit. Oversized: 413, and the connection is
 * closed so the rest of the body is never read.
 */
export function mcpBodyLimitMiddleware(maxBytes: number) {
  return (
    request: IncomingMessage & { body?: unknown },
    response: ServerResponse,
    next: (error?: unknown) => void,
  ): void => {
    if (request.method !== 'POST' || request.body !== undefined) {
      next();
      return;
    }
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      refuseTooLarge(request, response, maxBytes);
      return;
    }

    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        refused = true;
        request.off('data', onData);
        chunks.length = 0;
        refuseTooLarge(request, response, maxBytes);
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('error', (error) => {
      if (!refused) next(error);
    });
    request.once('end', () => {
      if (refused) return;
      // The body is always parsed here (an empty one refused): the MCP library would wait for a stream already read.
      let body: unknown;
      try {
        body = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
      } catch {
        sendJsonRpcHttpError(response, 400, PARSE_ERROR, 'Parse error: the request body is not valid JSON.');
        return;
      }
      request.body = body;
      next();
    });
  };
}

function refuseTooLarge(request: IncomingMessage, response: ServerResponse, maxBytes: number): void {
  request.pause();
  sendJsonRpcHttpError(
    response,
    413,
    TRANSPORT_ERROR,
    `Request body larger than ${maxBytes} bytes (S2SP_MCP_MAX_BODY_BYTES).`,
    { connection: 'close' },
  );
}
