import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  McpServer,
  type ClientCapabilities,
  type RequestStateCodec,
  type ServerContext,
  type ServerOptions,
} from '@modelcontextprotocol/server';
import { McpContext, type Context } from '@rekog/mcp-nest';

/**
 * How the `requestState` of an `InputRequiredResult` (protocol 2026-07-28's multi-round-trip
 * requests) is sealed. Every server built with `serveMcp` signs the state its handlers mint with
 * {@link sealRequestState} (HMAC-SHA256, with an expiry) and checks the state a client echoes
 * before the handler runs: a modified, foreign or expired state is refused with `-32602`.
 * @public
 */
export interface McpRequestStateOptions {
  /**
   * The HMAC key, at least 32 bytes. Every replica that may receive a client's next round must
   * have the same key; the default, a random key per process, serves a single process only.
   */
  key?: string | Uint8Array;
  /** How long a sealed state stays valid, in seconds. Default 600. */
  ttlSeconds?: number;
}

/**
 * Where each SDK server the strategy builds carries its codec (on the low-level server the handlers
 * see): a property costs less than a WeakMap entry per server, which is one per request when stateless.
 */
const CODEC = Symbol('s2sp.requestStateCodec');

type WithCodec = { [CODEC]?: RequestStateCodec };

/**
 * The MCP SDK's own context of the request a tool, resource or prompt handler serves, from the
 * `context` @rekog/mcp-nest passes to the handler: `mcpReq.inputResponses` and
 * `mcpReq.requestState()` of a retried 2026-07-28 request, `mcpReq.elicitInput` and
 * `mcpReq.requestSampling` (server-to-client requests on sessions of the 2025 protocol era),
 * `mcpReq.notify`, `mcpReq.signal` and, over HTTP sessions with resumable streams,
 * `http.closeSSE`. Progress and log messages go through the context itself
 * (`context.reportProgress`, `context.log`).
 *
 * Handlers written once for both eras return `inputRequired(…)` (from `@modelcontextprotocol/server`):
 * a 2026-07-28 client answers the `InputRequiredResult` and calls again; on a 2025-era session the
 * SDK sends the requests to the client itself and calls the handler again with the answers.
 * @public
 */
export function mcpServerContext(context: Context): ServerContext {
  const sdk = context instanceof McpContext ? (context.getArgByIndex(4) as ServerContext | undefined) : undefined;
  if (!sdk) throw new Error('mcpServerContext: the context is not the one @rekog/mcp-nest passed to an MCP handler');
  return sdk;
}

/**
 * The capabilities the calling client declared: in the request's `_meta` on 2026-07-28, at
 * `initialize` on a 2025-era session. Undefined when the client declared none.
 * @public
 */
export function mcpClientCapabilities(context: McpContext): ClientCapabilities | undefined {
  return context.getSession().era === 'modern'
    ? context.getClientCapabilities()
    : context.mcpServer.server.getClientCapabilities();
}

/**
 * Seals `payload` into the `requestState` of an `InputRequiredResult`: signed with the server's key
 * (see {@link McpRequestStateOptions}) and bound to the request's method, so a client can send it
 * back but not change it. When the client calls again, the server verifies the state before the
 * handler runs, and the handler reads the payload back with
 * `mcpServerContext(context).mcpReq.requestState<T>()`. The payload is signed, not encrypted:
 * the client can read it.
 * @public
 */
export async function sealRequestState(context: Context, payload: unknown): Promise<string> {
  const codec = (context.mcpServer.server as WithCodec)[CODEC];
  if (!codec) throw new Error('sealRequestState: the server was not built by S2spMcpStrategy (serveMcp)');
  return codec.mint(payload, mcpServerContext(context));
}

/**
 * Wraps a server factory so that every server verifies echoed `requestState` with one codec.
 * The SDK's public API takes the verification hook only at construction; rebuilding every server
 * (one per request when stateless) cost about a tenth of a plain call's CPU, so the hook is set on
 * the server already built when the SDK keeps it in the field it reads at verification time
 * (`@modelcontextprotocol/server` 2.x), and the server is rebuilt with it otherwise.
 */
export function withRequestStateIntegrity(
  identity: ConstructorParameters<typeof McpServer>[0],
  serverOptions: Pick<ServerOptions, 'instructions' | 'cacheHints'>,
  options: McpRequestStateOptions = {},
): (server: McpServer) => McpServer {
  const codec = createRequestStateCodec({
    key: options.key ?? randomBytes(32),
    ttlSeconds: options.ttlSeconds ?? 600,
    bind: (ctx) => ctx.mcpReq.method,
  });
  const verify: RequestStateVerify = (state, ctx) => codec.verify(state, ctx);
  return (server) => {
    const sealed =
      withVerifyHook(server, verify) ??
      new McpServer(identity, {
        ...serverOptions,
        capabilities: server.server.getCapabilities(),
        requestState: { verify },
      });
    (sealed.server as WithCodec)[CODEC] = codec;
    return sealed;
  };
}

type RequestStateVerify = NonNullable<ServerOptions['requestState']>['verify'];

/** The field where the SDK's server keeps the `requestState.verify` option it was built with. */
const VERIFY_FIELD = '_requestStateVerify';

/** `server` with its verification hook set, or undefined when this SDK keeps it elsewhere. */
function withVerifyHook(server: McpServer, verify: RequestStateVerify): McpServer | undefined {
  const low = server.server as unknown as Record<string, unknown>;
  if (!(VERIFY_FIELD in low) || low[VERIFY_FIELD] !== undefined) return undefined;
  low[VERIFY_FIELD] = verify;
  return server;
}

type LogLevel = 'debug' | 'info' | 'warning' | 'error';

/**
 * On a 2025-era session, @rekog/mcp-nest sends a handler's progress and log messages as
 * server notifications unrelated to the request, so they travel on the session's standalone
 * stream (or nowhere, when the client has none open) instead of the request's own stream, where
 * the client waits for them. Sent through the SDK's request context, they go with the request.
 */
export function relatedToRequest(context: McpContext): McpContext {
  const session = context.getSession();
  const sdk = context.getArgByIndex(4) as ServerContext | undefined;
  if (session.era === 'modern' || session.stateless || !sdk) return context;
  const reportProgress: Context['reportProgress'] = async (progress) => {
    const progressToken = context.mcpRequest.params?._meta?.progressToken;
    if (progressToken === undefined) return;
    await sdk.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken } });
  };
  const send =
    (level: LogLevel) =>
    (message: string, data?: unknown): void =>
      void sdk.mcpReq.log(level, { message, context: data }).catch(() => undefined);
  const log: Context['log'] = { debug: send('debug'), info: send('info'), warn: send('warning'), error: send('error') };
  // Plain stores: both are writable own fields (typed readonly), and defining them anew cost more than the rest of this function.
  const writable = context as { reportProgress: Context['reportProgress']; log: Context['log'] };
  writable.reportProgress = reportProgress;
  writable.log = log;
  return context;
}
