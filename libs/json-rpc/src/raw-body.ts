import type { IncomingMessage } from 'node:http';

export type RawBody = { kind: 'ok'; body: Buffer } | { kind: 'too-large'; limit: number };

/**
 * Reads the request body up to maxBytes. An oversized body is reported without
 * buffering the excess; the caller should answer with `Connection: close`.
 * If a body parser already consumed the stream, its result is reused.
 */
export function readRawBody(req: IncomingMessage, maxBytes: number): Promise<RawBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too-large', limit: maxBytes });
  const preParsed = alreadyParsedBody(req);
  if (preParsed)
    return Promise.resolve(
      preParsed.length > maxBytes ? { kind: 'too-large', limit: maxBytes } : { kind: 'ok', body: preParsed },
    );

  return new Promise<RawBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > maxBytes) {
        cleanup();
        req.pause();
        resolve({ kind: 'too-large', limit: maxBytes });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ kind: 'ok', body: Buffer.concat(chunks, received) });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function alreadyParsedBody(req: IncomingMessage): Buffer | undefined {
  const body = (req as IncomingMessage & { body?: unknown }).body;
  if (!req.readableEnded || body === undefined) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body), 'utf8');
}
