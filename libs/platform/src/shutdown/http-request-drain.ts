import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** How often, while draining, connections that went idle after their answer are closed. */
const IDLE_SWEEP_MS = 50;

/**
 * Counts the HTTP requests a server is answering, so that shutdown can stop
 * accepting connections and wait for those calls to finish. Works under any
 * Nest HTTP platform: it listens on the Node server itself.
 *
 * A standalone event stream (GET with `Accept: text/event-stream`, e.g. an MCP
 * session's notification stream) is not counted: it never "finishes" and is
 * closed with the app.
 * @internal
 */
export class HttpRequestDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private draining = false;
  private onIdle: (() => void) | undefined;

  constructor(private readonly server: Server) {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.track(request, response),
    );
  }

  get activeRequests(): number {
    return this.inFlight.size;
  }

  /**
   * Stops accepting connections, answers every request from now on with
   * `Connection: close`, closes connections as they go idle, and resolves
   * once no request is in flight (true) or at `deadline` (false).
   */
  drain(deadline: number): Promise<boolean> {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
    this.server.close(() => undefined);
    this.server.closeIdleConnections();
    if (this.inFlight.size === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const sweep = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
      const finish = (drained: boolean) => {
        clearInterval(sweep);
        clearTimeout(timer);
        this.onIdle = undefined;
        resolve(drained);
      };
      this.onIdle = () => finish(true);
    });
  }

  private track(request: IncomingMessage, response: ServerResponse): void {
    if (isEventStream(request)) return;
    this.inFlight.add(response);
    if (this.draining) response.setHeader('connection', 'close');
    response.once('close', () => {
      this.inFlight.delete(response);
      if (this.inFlight.size === 0) this.onIdle?.();
    });
  }
}

function isEventStream(request: IncomingMessage): boolean {
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/event-stream');
}
