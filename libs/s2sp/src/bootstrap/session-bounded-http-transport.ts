import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
  isInitializeRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { McpTransportContext } from '@rekog/mcp-nest';
import { callerFrom } from '@s2sp/auth';
import { PeriodicSweep } from '@s2sp/platform/internal';
import { EraSplitHttpTransport } from './era-split-http-transport';
import { sendJsonRpcHttpError } from './json-rpc-http-error';
import type { McpRequest } from './mcp-request';
import type { McpHttpLimits } from './mcp-http-limits';
import { McpSessionRegistry, SessionLimitError, type TrackedSession } from './mcp-session-registry';
import { nodeStreamableHttpHandler, type NodeStreamableHttpHandler } from './node-streamable-http-handler';
import { SessionEventStore } from './session-event-store';

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
 */
export class SessionBoundedHttpTransport extends EraSplitHttpTransport {
  private readonly sessions: McpSessionRegistry<SessionHandle>;
  private readonly sweepIntervalMs: number;
  private readonly sseRetryMs: number;
  private sweep?: PeriodicSweep;

  constructor(
    endpoint: string,
    limits: Pick<McpHttpLimits, 'sessionIdleTimeoutMs' | 'maxSessionsPerCaller' | 'sseRetryMs'>,
    now?: () => number,
  ) {
    super(endpoint);
    this.sseRetryMs = limits.sseRetryMs;
    this.sessions = new McpSessionRegistry<SessionHandle>(limits, now);
    this.sweepIntervalMs = Math.min(MAX_SWEEP_INTERVAL_MS, limits.sessionIdleTimeoutMs);
  }

  /** Sessions open now. */
  get openSessions(): number {
    return this.sessions.size;
  }

  protected started(ctx: McpTransportContext): void {
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

  protected override async closeLegacyEra(): Promise<void> {
    await this.sweep?.stop();
    await Promise.all(this.sessions.removeAll().map((session) => closeSession(session.value)));
  }

  protected async handlePost(request: McpRequest, response: ServerResponse): Promise<void> {
    const body = request.body;
    if (sessionIdOf(request) !== undefined) {
      const session = this.liveSession(request, response);
      if (!session) return;
      this.ctx.bindRequestHandlers(
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
  protected async handleStream(request: McpRequest, response: ServerResponse): Promise<void> {
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
    const server = this.ctx.createServer();
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
      this.ctx.bindRequestHandlers(server, { transport: this.kind, stateless: false, era: 'legacy' }, request);
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
