import { ConsoleLogger, type INestApplication, type LoggerService, type LogLevel } from '@nestjs/common';
import { ModuleRef, NestFactory, type AbstractHttpAdapter } from '@nestjs/core';
import { type ShutdownOptions } from '@s2sp/platform';
import {
  HttpRequestDrain,
  leaveRequestBodyUnread,
  Readiness,
  resolveShutdownOptions,
  shutdownControls,
} from '@s2sp/platform/internal';
import type { CacheHint } from '@modelcontextprotocol/server';
import { StdioTransport, type McpCacheHints, type McpTransport } from '@rekog/mcp-nest';
import type { McpServerAuthOptions } from '../auth/mcp-protected-resource';
import { mcpScopeChallengeMiddleware } from '../auth/mcp-scope-challenge.middleware';
import { mountS2spAuth } from '../auth/mount-s2sp-auth';
import { mountRequestHostValidation } from '../http/mount-request-host-validation';
import { nodeMiddlewareChain } from '../http/node-middleware-chain';
import { mcpBodyLimitMiddleware } from './mcp-body-limit.middleware';
import { resolveMcpHttpLimits, type McpHttpLimits } from './mcp-http-limits';
import { mountMcpServerHealth } from './mcp-server-health';
import { SessionBoundedHttpTransport } from './session-bounded-http-transport';
import { StatelessHttpTransport } from './stateless-http-transport';
import { StderrLogger } from './stderr-logger';
import { MCP_COMPLETION_SOURCE, type McpCompletionSource } from '../mcp-surfaces/mcp-completion-source';
import { MCP_RESOURCE_DIRECTORY, type McpResourceDirectory } from '../mcp-surfaces/mcp-resource-directory';
import { McpSessionBroadcaster } from '../mcp-surfaces/mcp-session-broadcaster';
import { S2spMcpStrategy } from '../mcp-surfaces/s2sp-mcp-strategy';
import type { McpRequestStateOptions } from '../mcp-surfaces/mcp-request-context';
import type { McpTasksOptions } from '../mcp-surfaces/mcp-tasks';

const MCP_ENDPOINT = '/mcp';

/** @public */
export interface ServeMcpOptions {
  /** MCP server name and version announced at initialization. */
  name: string;
  version: string;
  host: string;
  /** 0 picks a free port; read the bound one from the result. */
  port: number;
  /** `http`: MCP over Streamable HTTP at /mcp. `stdio`: MCP over stdin/stdout, HTTP for the data plane only. */
  transport: 'http' | 'stdio';
  instructions?: string;
  /**
   * HTTP sessions (default true): clients keep a stream open on which the
   * server can send notifications such as tools/list_changed; their number
   * and idle lifetime are bounded by `mcpLimits`. False serves every POST on
   * its own, which scales out without sticky sessions.
   */
  sessions?: boolean;
  /**
   * Limits of `/mcp` over HTTP; each unset one is DEFAULT_MCP_HTTP_LIMITS'.
   * An app configured from the environment passes `mcpHttpLimitsFromEnv()` (the S2SP_MCP_* variables).
   */
  mcpLimits?: Partial<McpHttpLimits>;
  /**
   * Nest logger: false for none, your own LoggerService, or the levels the default
   * logger keeps (default all; to stderr over stdio, whose stdout carries the protocol).
   */
  logger?: LoggerService | LogLevel[] | false;
  /**
   * The HTTP platform, as given to NestFactory.create: Express's by default, or
   * e.g. `new FastifyAdapter()` (@nestjs/platform-fastify). `/mcp`, the data plane
   * and their authentication answer the same on both.
   */
  httpAdapter?: AbstractHttpAdapter;
  /**
   * Caller authentication (the module must import AuthModule): `/mcp` and the
   * data plane then require a bearer token for `audience` (or, over HTTP, for the
   * `resource` URL), and tools' `scopes` are enforced. Over HTTP the server is an
   * OAuth protected resource: it publishes its metadata at
   * `/.well-known/oauth-protected-resource/mcp`, a 401 points to it and names the
   * scopes to ask for, and a `tools/call` lacking a scope the tool requires is
   * answered 403 `insufficient_scope` (docs/auth.md). Over stdio the spawning process is the caller.
   */
  auth?: McpServerAuthOptions;
  /**
   * The caching hint (`ttlMs`, `cacheScope`) of every list this server answers
   * (tools, prompts, resources, resource templates), sent to clients of the
   * protocol era that carries them. Default `{ ttlMs: 0, cacheScope: 'private' }`:
   * lists change at run time (list_changed) and, with `auth`, per caller.
   */
  listCacheHint?: CacheHint;
  /**
   * Runs after the app is created and before MCP mounts /mcp: the place for
   * middleware that must see MCP and data-plane requests (e.g. authentication,
   * which Nest guards cannot do for the route @rekog/mcp-nest mounts itself).
   */
  configure?: (app: INestApplication) => void | Promise<void>;
  /**
   * Runs once the HTTP server listens, with its `http://host:port`, before any MCP request is
   * served: over stdio a client may call a tool the moment stdin is read, so a `publicBaseUrl`
   * taken from the listening address (a server on port 0) is set here, not after serveMcp resolves.
   */
  onListening?: (url: string) => void;
  /**
   * Whether clients may subscribe to resources (`resources/subscribe`); the app
   * then announces changes through {@link McpSessionBroadcaster.resourceUpdated}. Default false.
   * Over HTTP it needs `sessions` (refused with `sessions: false`).
   */
  resourceSubscriptions?: boolean;
  /**
   * How the `requestState` of the `InputRequiredResult`s handlers return is sealed
   * (see `sealRequestState`); replicas behind one address must share `key`.
   * Default: a random key per process.
   */
  requestState?: McpRequestStateOptions;
  /**
   * Serve the `io.modelcontextprotocol/tasks` extension: tools may then run their work as tasks
   * (`runAsTask`), which clients follow with `tasks/get`, `tasks/update` and `tasks/cancel`.
   * Default: not served.
   */
  tasks?: McpTasksOptions;
  /**
   * Graceful shutdown; each unset option is DEFAULT_SHUTDOWN_OPTIONS' of @s2sp/platform.
   * An app configured from the environment passes `shutdownOptionsFromEnv()` (S2SP_SHUTDOWN_*).
   */
  shutdown?: Partial<ShutdownOptions>;
}

/** @public */
export interface RunningMcpServer {
  app: INestApplication;
  /** `http://host:port` the app listens on. */
  url: string;
  port: number;
  /** The MCP strategy: register or remove tools, resources and prompts at run time (every session is told). */
  mcp: S2spMcpStrategy;
  /** Closes at once: requests in flight are cut off. */
  close(): Promise<void>;
  /**
   * GET /health answers 503, new connections are refused after
   * `shutdown.notReadyDelayMs`, requests in flight get until `shutdown.graceMs`
   * to finish (open notification streams are not waited for), then the app
   * closes (its audit trails are flushed). A server's main runs it on SIGTERM:
   * `exitOnTerminationSignal(() => server.shutdown(), logger)` (@s2sp/platform).
   */
  shutdown(): Promise<void>;
}

/**
 * Starts a Nest app that serves its @McpController tools over MCP and its
 * HTTP routes (the S2SP data plane among them) on one port.
 * @public
 */
export async function serveMcp(
  module: Parameters<typeof NestFactory.create>[0],
  options: ServeMcpOptions,
): Promise<RunningMcpServer> {
  if (options.resourceSubscriptions && options.transport === 'http' && options.sessions === false) {
    throw new Error(
      'serveMcp: resourceSubscriptions needs sessions: without them (sessions: false) each request is answered on ' +
        'its own, and no stream is left open to send notifications/resources/updated on.',
    );
  }
  const logger =
    options.logger === undefined || Array.isArray(options.logger)
      ? defaultLogger(options.transport, options.logger)
      : options.logger;
  // forceCloseConnections: MCP clients keep a notification stream open, which
  // would otherwise hold app.close() (and a SIGTERM'd process) forever.
  const appOptions = { bodyParser: false, logger, forceCloseConnections: true };
  const app = options.httpAdapter
    ? await NestFactory.create(module, options.httpAdapter, appOptions)
    : await NestFactory.create(module, appOptions);
  try {
    return await serveApp(app, options);
  } catch (error) {
    // A refused option or a port in use must not leave the app's pools and timers running.
    await app.close().catch(() => undefined);
    throw error;
  }
}

async function serveApp(app: INestApplication, options: ServeMcpOptions): Promise<RunningMcpServer> {
  const shutdownOptions = resolveShutdownOptions(options.shutdown);
  const readiness = new Readiness();
  const limits = resolveMcpHttpLimits(options.mcpLimits);
  const hostValidation = mountRequestHostValidation(app);
  const auth = options.auth
    ? mountS2spAuth(app, { resourceName: options.name, ...options.auth }, { mcpOverHttp: options.transport === 'http' })
    : undefined;
  if (options.transport === 'http') {
    // mcpBodyLimitMiddleware reads the body; on Fastify, the stream is left to it.
    leaveRequestBodyUnread(app.getHttpAdapter(), MCP_ENDPOINT);
    app.use(
      MCP_ENDPOINT,
      nodeMiddlewareChain([
        // Before authentication: a request for a foreign Host or Origin is refused before its token is read.
        hostValidation.mcp,
        ...(auth?.mcp ? [auth.mcp] : []),
        // After authentication: an unauthenticated body is refused unread.
        mcpBodyLimitMiddleware(limits.maxBodyBytes),
        ...(auth?.resource ? [mcpScopeChallengeMiddleware(auth.gate, auth.resource)] : []),
      ]),
    );
  }
  await options.configure?.(app);
  const sessions =
    options.transport === 'http' && (options.sessions ?? true)
      ? new SessionBoundedHttpTransport(MCP_ENDPOINT, limits)
      : undefined;
  const transports: McpTransport[] =
    options.transport === 'stdio' ? [new StdioTransport()] : [sessions ?? new StatelessHttpTransport(MCP_ENDPOINT)];
  mountMcpServerHealth(app, sessions ? () => sessions.openSessions : undefined, readiness);
  const mcp = new S2spMcpStrategy(
    {
      name: options.name,
      version: options.version,
      instructions: options.instructions,
      transports,
      cacheHints: listCacheHints(options.listCacheHint ?? DEFAULT_LIST_CACHE_HINT),
      // Tools' securitySchemes: with caller authentication over HTTP every tool needs the bearer
      // token, which @rekog/mcp-nest advertises as oauth2 in this mode (each request that reaches
      // it has passed the authentication middleware, so it always has a user); else noauth.
      allowUnauthenticatedAccess: options.auth !== undefined && options.transport === 'http',
    },
    {
      broadcaster: optionalProvider(app, McpSessionBroadcaster) ?? new McpSessionBroadcaster(),
      directory: optionalProvider<McpResourceDirectory>(app, MCP_RESOURCE_DIRECTORY),
      completions: optionalProvider<McpCompletionSource>(app, MCP_COMPLETION_SOURCE),
      listPageSize: limits.listPageSize,
      subscriptions: options.resourceSubscriptions ?? false,
      ...(options.requestState ? { requestState: options.requestState } : {}),
      ...(options.tasks ? { tasks: options.tasks } : {}),
    },
  );
  mcp.setHttpAdapter(app.getHttpAdapter());
  // inheritAppConfig: the app's global enhancers (APP_INTERCEPTOR of TelemetryModule, …) reach the MCP
  // tools too; guards of other context types (HTTP, JSON-RPC, gRPC) let tool calls through.
  app.connectMicroservice({ strategy: mcp }, { inheritAppConfig: true });
  // Over HTTP the MCP routes must be mounted before the server takes requests; over stdio the data
  // plane must listen (and its address be known) before a tool call can arrive on stdin.
  if (options.transport === 'http') await app.startAllMicroservices();
  const httpServer = app.getHttpServer() as { keepAliveTimeout: number; headersTimeout: number };
  httpServer.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A request's headers may arrive as late as the idle window allows.
  httpServer.headersTimeout = Math.max(httpServer.headersTimeout, limits.keepAliveTimeoutMs + 1_000);
  await app.listen(options.port, options.host);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  options.onListening?.(`http://${host}:${port}`);
  auth?.resource?.bind(`http://${host}:${port}`, mcp);
  if (options.transport === 'stdio') await app.startAllMicroservices();
  const requests = new HttpRequestDrain(app.getHttpServer());
  const controls = shutdownControls(() => app.close(), {
    options: shutdownOptions,
    readiness,
    drains: [{ name: 'in-flight HTTP requests', drain: (deadline) => requests.drain(deadline) }],
  });
  return { app, url: `http://${host}:${port}`, port, mcp, ...controls };
}

/**
 * A provider the app's modules may or may not declare. Looked up through ModuleRef:
 * a miss through the app itself is a fatal error (Nest exits the process).
 */
function optionalProvider<T>(
  app: INestApplication,
  token: string | symbol | (abstract new (...args: never[]) => T),
): T | undefined {
  try {
    return app.get(ModuleRef).get<T>(token, { strict: false });
  } catch {
    return undefined;
  }
}

const DEFAULT_LIST_CACHE_HINT: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/** The cacheable list operations; every one gets the same hint. */
const CACHEABLE_LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

function listCacheHints(hint: CacheHint): McpCacheHints {
  return Object.fromEntries(CACHEABLE_LISTS.map((method) => [method, hint]));
}

/** stdio must keep stdout for the protocol; `levels` (e.g. error, warn) narrows what Nest prints. */
function defaultLogger(transport: 'http' | 'stdio', levels: LogLevel[] = []): LoggerService | undefined {
  if (transport === 'stdio') {
    const logger = new StderrLogger();
    if (levels.length > 0) logger.setLogLevels(levels);
    return logger;
  }
  return levels.length > 0 ? new ConsoleLogger({ logLevels: levels }) : undefined;
}
