import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import { StreamableHttpTransport, type McpTransport, type McpTransportContext } from '@rekog/mcp-nest';
import { callerFrom } from '@s2sp/auth';
import { nodeRequestOf, nodeResponseOf, PeriodicSweep, takeNodeResponse } from '@s2sp/platform/internal';
import { sendJsonRpcHttpError } from './json-rpc-http-error';
import type { McpHttpLimits } from './mcp-http-limits';
import { McpSessionRegistry, SessionLimitError, type TrackedSession } from './mcp-session-registry';
import { nodeStreamableHttpHandler, type NodeStreamableHttpHandler } from './node-streamable-http-handler';
import { SessionEventStore } from './session-event-store';

type McpRequest = IncomingMessage & { body?: unknown };

interface SessionHandle {
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  handle: NodeStreamableHttpHandler;
}

/** Owner of the sessions opened without authentication (no subject can take this form). */
const ANONYMOUS_OWNER = '\u0000anonymous';
const SESSION_NOT_FOUND = -32001;
const TRANSPORT_ERROR = -32000;
/** How often idle sessions are swept at most (they are refused as soon as they expire regardless). */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * MCP Streamable HTTP with sessions whose number and lifetime are bounded.
 * @rekog/mcp-nest's stateful transport keeps sessions in a plain object
 * forever (a session id `constructor` reaches Object.prototype: HTTP 500);
 * this transport keeps them in {@link McpSessionRegistry}: an unknown, odd or
 * expired id gets the spec's 404 "Session not found".
 * Requests of the stateless 2026 protocol era go to the library's transport.
 */
export class SessionBoundedHttpTransport implements McpTransport {
  readonly kind = 'streamable-http' as const;
  private readonly sessions: McpSessionRegistry<SessionHandle>;
  private readonly modernEra = new StreamableHttpTransport({ statefulMode: false, mount: false });
  private readonly sweepIntervalMs: number;
  private readonly sseRetryMs: number;
  private sweep?: PeriodicSweep;
  private ctx?: McpTransportContext;

  constructor(
    private readonly endpoint: string,
    limits: Pick<McpHttpLimits, 'sessionIdleTimeoutMs' | 'maxSessionsPerCaller' | 'sseRetryMs'>,
    now?: () => number,
  ) {
    this.sseRetryMs = limits.sseRetryMs;
    this.sessions = new McpSessionRegistry<SessionHandle>(limits, now);
    this.sweepIntervalMs = Math.min(MAX_SWEEP_INTERVAL_MS, limits.sessionIdleTimeoutMs);
  }

  /** Sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  async start(ctx: McpTransportContext): Promise<void> {
    if (!ctx.httpAdapter)
      throw new Error('SessionBoundedHttpTransport needs the HTTP adapter (McpStrategy.setHttpAdapter).');
    this.ctx = ctx;
    // eslint-disable-next-line @typescript-eslint/await-thenable, @typescript-eslint/no-confusing-void-expression -- typed void, but the transport may start asynchronously: awaiting it is harmless and keeps the order
    await this.modernEra.start(ctx);
    const modern = this.modernEra.httpHandlers;
    const adapter = ctx.httpAdapter;
    // The adapter's objects (Express's or Fastify's): this transport serves the exchange on
    // node's, which it writes itself (a Fastify reply is hijacked). The library's own handler
    // of the modern era takes the adapter's objects and answers on them as it does alone.
    adapter.post(this.endpoint, (adapterRequest: unknown, adapterResponse: unknown) => {
      const request = nodeRequestOf(adapterRequest) as McpRequest;
      if (this.isModernEra(request))
        return this.guarded(
          nodeResponseOf(adapterResponse),
          async () => await modern.handlePost(adapterRequest, adapterResponse),
        );
      const response = takeNodeResponse(adapterResponse);
      return this.guarded(response, () => this.handlePost(request, response));
    });
    const stream = (adapterRequest: unknown, adapterResponse: unknown) => {
      const [request, response] = [nodeRequestOf(adapterRequest) as McpRequest, takeNodeResponse(adapterResponse)];
      return this.guarded(response, () => this.handleStream(request, response));
    };
    adapter.get(this.endpoint, stream);
    adapter.delete(this.endpoint, stream);
    this.sweep = new PeriodicSweep('MCP sessions', () => this.closeExpired(), ctx.logger);
    this.sweep.start(this.sweepIntervalMs);
    ctx.logger.log(`MCP streamable-http transport mounted at ${this.endpoint} (sessions bounded)`);
  }

  /** Closes every session that has been idle for the timeout; resolves to how many. */
  async closeExpired(): Promise<number> {
    const expired = this.sessions.removeExpired();
    await Promise.all(expired.map((session) => closeSession(session.value)));
    return expired.length;
  }

  async close(): Promise<void> {
    await this.sweep?.stop();
    await Promise.all(this.sessions.removeAll().map((session) => closeSession(session.value)));
    await this.modernEra.close();
  }

  notifyListChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    this.modernEra.notifyListChanged(kind);
  }

  private async handlePost(request: McpRequest, response: ServerResponse): Promise<void> {
    const body = request.body;
    if (sessionIdOf(request) !== undefined) {
      const session = this.liveSession(request, response);
      if (!session) return;
      this.ctx!.bindRequestHandlers(
        session.value.server,
        { transport: this.kind, stateless: false, sessionId: session.id, era: 'legacy' },
        request,
      );
      await this.serve(session, response, () => session.value.handle(request, response, body));
      return;
    }
    const initialize = Array.isArray(body)
      ? body.some((message) => isInitializeRequest(message))
      : isInitializeRequest(body);
    if (!initialize) {
      sendJsonRpcHttpError(response, 400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
      return;
    }
    await this.openSession(request, response, body);
  }

  /** GET (the notification stream) and DELETE (end of session) of an open session. */
  private async handleStream(request: McpRequest, response: ServerResponse): Promise<void> {
    const session = this.liveSession(request, response);
    if (!session) return;
    await this.serve(session, response, () => session.value.handle(request, response));
  }

  private async openSession(request: McpRequest, response: ServerResponse, body: unknown): Promise<void> {
    const owner = ownerOf(request);
    let closing: Array<TrackedSession<SessionHandle>>;
    try {
      closing = this.sessions.admit(owner);
    } catch (error) {
      if (!(error instanceof SessionLimitError)) throw error;
      sendJsonRpcHttpError(response, 429, TRANSPORT_ERROR, error.message);
      return;
    }
    void Promise.all(closing.map((session) => closeSession(session.value)));

    // The session takes its place (busy) before the first await, so concurrent initializes cannot overshoot the cap.
    const id = randomUUID();
    const server = this.ctx!.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: false,
      // With an event store the transport opens each SSE stream with a priming event (an id, empty
      // data, and this retry), and a client that lost a stream can resume it with Last-Event-ID.
      eventStore: new SessionEventStore(),
      retryInterval: this.sseRetryMs,
      onsessionclosed: (closedId) => {
        const closed = this.sessions.remove(closedId);
        if (closed) void closeSession(closed.value);
      },
    });
    const handle = nodeStreamableHttpHandler(transport);
    const session = this.sessions.add(id, owner, { server, transport, handle });
    await this.serve(session, response, async () => {
      await server.connect(transport);
      this.ctx!.bindRequestHandlers(server, { transport: this.kind, stateless: false, era: 'legacy' }, request);
      await handle(request, response, body);
    });
    if (transport.sessionId !== id) {
      // The handshake was refused (e.g. malformed): no session was opened.
      this.sessions.remove(id);
      await closeSession(session.value);
    }
  }

  /** The session named by the request's Mcp-Session-Id, or undefined after answering 404 (or 400 without one). */
  private liveSession(request: McpRequest, response: ServerResponse): TrackedSession<SessionHandle> | undefined {
    const id = sessionIdOf(request);
    if (id === undefined) {
      sendJsonRpcHttpError(response, 400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const { session, expired } = this.sessions.find(id);
    if (expired) void closeSession(expired.value);
    if (!session) sendJsonRpcHttpError(response, 404, SESSION_NOT_FOUND, 'Session not found');
    return session;
  }

  /**
   * Runs one request on `session`, which counts as busy (never idle) until the
   * response is closed. Marks it busy synchronously, before anything is awaited.
   */
  private async serve(
    session: TrackedSession<SessionHandle>,
    response: ServerResponse,
    handle: () => Promise<void>,
  ): Promise<void> {
    const done = this.sessions.use(session);
    response.once('close', done);
    try {
      await handle();
    } finally {
      if (response.writableEnded) done();
    }
  }

  private isModernEra(request: McpRequest): boolean {
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const outcome = classifyInboundRequest({
      httpMethod: request.method ?? 'POST',
      protocolVersionHeader: header('mcp-protocol-version'),
      mcpMethodHeader: header('mcp-method'),
      mcpNameHeader: header('mcp-name'),
      body: request.body,
    });
    return outcome.kind !== 'legacy';
  }

  private async guarded(response: ServerResponse, handle: () => Promise<void>): Promise<void> {
    try {
      await handle();
    } catch (error) {
      this.ctx?.logger.error(
        `Error handling an MCP request: ${error instanceof Error ? error.message : 'unknown error'}`,
      );
      sendJsonRpcHttpError(response, 500, -32603, 'Internal server error');
    }
  }
}

function sessionIdOf(request: McpRequest): string | undefined {
  const value = request.headers['mcp-session-id'];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function ownerOf(request: McpRequest): string {
  return callerFrom(request)?.subject ?? ANONYMOUS_OWNER;
}

async function closeSession(session: SessionHandle): Promise<void> {
  try {
    await session.server.close();
  } catch {
    // Already closed with its transport: nothing left to release.
  }
}
