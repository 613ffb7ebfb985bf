import type { IncomingMessage } from 'node:http';
import { DataPlaneError } from './data-plane-error';

/**
 * The request body as JSON. Reads the stream itself with a byte limit so the
 * data plane answers malformed or oversized bodies with its own error codes;
 * if the app's global body parser already parsed it, that result is used.
 * `request` is node's (on Fastify, left unread by `leaveRequestBodyUnread` of @s2sp/platform).
 */
export async function readJsonBody(
  request: IncomingMessage & { body?: unknown; _body?: boolean },
  maxBytes: number,
): Promise<unknown> {
  if (request._body || request.readableEnded) return request.body ?? undefined;
  const contentType = request.headers['content-type'];
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  if (contentType !== undefined && !/^application\/([a-z.+-]*\+)?json\b/i.test(contentType)) {
    throw new DataPlaneError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DataPlaneError(400, 'MALFORMED_JSON', 'The request body is not valid JSON.');
  }
}

function tooLarge(maxBytes: number): DataPlaneError {
  return new DataPlaneError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${maxBytes} bytes (limit maxRequestBytes).`,
  );
}
