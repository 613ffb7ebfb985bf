import type { ServerResponse } from 'node:http';

/** The client went away before the answer was written. */
export class ResponseClosedError extends Error {
  constructor() {
    super('The client closed the connection before the answer was complete');
  }
}

/**
 * Writes chunks to the response as the client reads them (waiting for
 * `drain` whenever the socket's buffer is full), then ends it, telling
 * `beforeEnd` how many bytes it wrote. The last chunk goes out with the end
 * of the response: an answer of one chunk is one write, with a Content-Length.
 * Returns the bytes written.
 */
export async function streamToResponse(
  response: ServerResponse,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  beforeEnd: (bytes: number) => void = () => undefined,
): Promise<number> {
  let bytes = 0;
  let held: string | Uint8Array | undefined;
  for await (const chunk of chunks) {
    if (response.destroyed) throw new ResponseClosedError();
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (held !== undefined && !response.write(held)) await drained(response);
    held = chunk;
  }
  if (response.destroyed) throw new ResponseClosedError();
  beforeEnd(bytes);
  await new Promise<void>((resolve, reject) => {
    const onClose = () => (response.writableFinished ? resolve() : reject(new ResponseClosedError()));
    response.once('close', onClose);
    const finished = () => {
      response.off('close', onClose);
      resolve();
    };
    if (held === undefined) response.end(finished);
    else response.end(held, finished);
  });
  return bytes;
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      response.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      response.off('drain', onDrain);
      reject(new ResponseClosedError());
    };
    response.once('drain', onDrain);
    response.once('close', onClose);
  });
}
