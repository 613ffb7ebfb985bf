import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Media type that stands, on Fastify and between the middleware and the body
 * parser only, for the body of a route that reads its request stream itself
 * (see {@link leaveRequestBodyUnread}).
 */
export const UNREAD_BODY_MEDIA_TYPE = 'application/x-s2sp-unread-body';

const SENT_CONTENT_TYPE = Symbol.for('s2sp.platform.sent-content-type');

type Carrier = IncomingMessage & { [SENT_CONTENT_TYPE]?: string | undefined };

/**
 * The parts of Nest's HTTP adapter (Express or Fastify) this needs.
 * @public
 */
export interface HttpAdapterLike {
  getType(): string;
  getInstance<T = unknown>(): T;
  use(
    path: string,
    middleware: (request: IncomingMessage, response: ServerResponse, next: () => void) => void,
  ): unknown;
}

interface FastifyParsers {
  hasContentTypeParser(type: string): boolean;
  addContentTypeParser(
    type: string,
    parser: (request: unknown, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void,
  ): void;
}

/**
 * Leaves the request stream of routes under `path` unread until their handler
 * runs, for handlers that read it themselves (under their own limit, with their
 * own error answers). Express leaves it so without a body parser: nothing to do.
 * Fastify parses every body before the handler and answers malformed or oversized
 * ones with its own errors, and its parsers are chosen by media type, not route:
 * a middleware gives these requests a media type of their own, whose parser reads
 * nothing and puts the client's Content-Type back, so the handler sees the request
 * as sent and JSON parsing of the app's other routes is untouched.
 * Call before the app listens.
 * @internal
 */
export function leaveRequestBodyUnread(adapter: HttpAdapterLike, path: string): void {
  if (adapter.getType() !== 'fastify') return;
  const fastify = adapter.getInstance<FastifyParsers>();
  if (!fastify.hasContentTypeParser(UNREAD_BODY_MEDIA_TYPE))
    fastify.addContentTypeParser(UNREAD_BODY_MEDIA_TYPE, passUnread);
  adapter.use(path, markUnread);
}

function passUnread(request: unknown, _payload: unknown, done: (error: Error | null, body?: unknown) => void): void {
  const raw = (request as { raw: Carrier }).raw;
  if (!(SENT_CONTENT_TYPE in raw)) {
    // A client sending the marker type itself is refused, 415 (an error of the
    // http-errors shape, which the adapter's error handling answers with its status).
    done(
      Object.assign(new Error(`Unsupported Media Type: ${UNREAD_BODY_MEDIA_TYPE}`), {
        status: 415,
        statusCode: 415,
        expose: true,
      }),
    );
    return;
  }
  const sent = raw[SENT_CONTENT_TYPE];
  if (sent === undefined) delete raw.headers['content-type'];
  else raw.headers['content-type'] = sent;
  done(null, undefined);
}

function markUnread(request: IncomingMessage, _response: ServerResponse, next: () => void): void {
  const carrier = request as Carrier;
  // Fastify parses what has a media type (an empty JSON body is its error) or a body;
  // a request with neither reaches the handler as it is.
  if (!(SENT_CONTENT_TYPE in carrier) && (request.headers['content-type'] !== undefined || hasBody(request))) {
    Object.defineProperty(carrier, SENT_CONTENT_TYPE, { value: request.headers['content-type'], enumerable: false });
    request.headers['content-type'] = UNREAD_BODY_MEDIA_TYPE;
  }
  next();
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
