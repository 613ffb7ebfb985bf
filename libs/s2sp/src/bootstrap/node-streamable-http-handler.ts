import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type {
  AuthInfo,
  McpHandlerRequestOptions,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

/** Serves one Node request (with the body the framework already parsed) on a session's transport. */
export type NodeStreamableHttpHandler = (
  request: IncomingMessage & { auth?: AuthInfo },
  response: ServerResponse,
  parsedBody?: unknown,
) => Promise<void>;

/** Answers one web request of MCP: a transport's `handleRequest` or an MCP handler's `fetch`. */
export type McpFetch = (
  webRequest: Request,
  options: McpHandlerRequestOptions,
  incoming: IncomingMessage,
) => Promise<Response>;

/**
 * Serves Node requests with the MCP SDK's web-standard Streamable HTTP transport, as the SDK's
 * own Node adapter does, except that an event stream is written here as its events come.
 * The adapter (`@hono/node-server`) reads ahead to learn a body's length, and when a stream opens
 * with an SSE priming event (every call of a session with an event store) and the next event is
 * not there yet, it waits a timer (at least a millisecond) before it writes anything: at one call
 * at a time, that wait was most of a call.
 */
export function nodeStreamableHttpHandler(
  transport: WebStandardStreamableHTTPServerTransport,
): NodeStreamableHttpHandler {
  return nodeMcpHandler((webRequest, options) => transport.handleRequest(webRequest, options));
}

/** Serves Node requests with `fetch` (see {@link nodeStreamableHttpHandler}), each with its caller and parsed body. */
export function nodeMcpHandler(fetch: McpFetch): NodeStreamableHttpHandler {
  // One listener per handler; each request's parsed body rides beside it.
  const parsedBodies = new WeakMap<IncomingMessage, unknown>();
  const listener = getRequestListener(
    async (webRequest, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      const answer = await fetch(
        webRequest,
        {
          authInfo: (incoming as IncomingMessage & { auth?: AuthInfo }).auth,
          parsedBody: parsedBodies.get(incoming),
        },
        incoming,
      );
      if (!isEventStream(answer)) return answer;
      await writeEventStream(answer, outgoing);
      return RESPONSE_ALREADY_SENT;
    },
    { overrideGlobalObjects: false },
  );
  return async (request, response, parsedBody) => {
    if (parsedBody !== undefined) parsedBodies.set(request, parsedBody);
    await listener(request, response);
  };
}

function isEventStream(answer: Response): answer is Response & { body: ReadableStream<Uint8Array> } {
  return answer.body !== null && (answer.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * Writes each event as soon as it is read, at the latest when the current turn of the event loop
 * ends: an event read while the one before is still waiting goes out right after it, and the end
 * of the stream, when it follows an event at once, leaves in the same packet (the answer to a call
 * and the stream's end). The headers leave with the first event (the priming event), or alone at
 * the end of the turn when none is ready (a GET notification stream opens at once).
 */
async function writeEventStream(answer: Response & { body: ReadableStream<Uint8Array> }, response: ServerResponse) {
  // forEach: iterating a Headers (Object.fromEntries) cost twice as much, on every call of a session.
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(answer.status, headers);
  const reader = answer.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  response.once('close', cancel);
  let waiting: Uint8Array | undefined;
  let written = false;
  let flowing = true;
  const flush = () => {
    const event = waiting;
    waiting = undefined;
    if (event === undefined || response.destroyed) return;
    written = true;
    flowing = response.write(event);
  };
  process.nextTick(() => {
    if (waiting !== undefined) flush();
    else if (!written && !response.destroyed) response.flushHeaders();
  });
  try {
    for (;;) {
      if (!flowing) {
        await drainedOrClosed(response);
        flowing = true;
      }
      const { done, value } = await reader.read();
      if (done) break;
      flush();
      waiting = value;
      process.nextTick(flush);
    }
    const last = waiting;
    waiting = undefined;
    if (!response.destroyed) response.end(last);
  } catch (error) {
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  } finally {
    response.off('close', cancel);
  }
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle);
      response.off('close', settle);
      resolve();
    };
    response.once('drain', settle);
    response.once('close', settle);
  });
}
