import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type McpServer,
  type Resource,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { McpStrategy, type McpContext } from '@rekog/mcp-nest';
import { declaresParamHeaders, withParamHeaderMirroring } from './mcp-param-headers';
import { isCreateTaskResult, McpTaskStore, refusalOf, serveTasks, type McpTasksOptions } from './mcp-tasks';
import { relatedToRequest, withRequestStateIntegrity, type McpRequestStateOptions } from './mcp-request-context';
import { MAX_COMPLETION_VALUES, type McpCompletionSource } from './mcp-completion-source';
import type { McpResourceDirectory } from './mcp-resource-directory';
import type { McpListKind, McpSessionBroadcaster } from './mcp-session-broadcaster';
import { pageOf } from './list-cursor';
import { decoratedTools, type DecoratedTool } from './decorated-tools';
import { withStacklessCloseError } from './stackless-close-error';

/** @public */
export type McpStrategyOptions = ConstructorParameters<typeof McpStrategy>[0];
/** @public */
export type McpSessionSeed = Parameters<McpStrategy['bindRequestHandlers']>[1];

/**
 * What S2SP servers add to @rekog/mcp-nest's MCP surface.
 * @public
 */
export interface McpSurfaces {
  broadcaster: McpSessionBroadcaster;
  /** Lists `resources/list`, paged; without it the library's own (unpaged) list of @Resource handlers answers. */
  directory?: McpResourceDirectory;
  /** Answers `completion/complete`; declares the `completions` capability. */
  completions?: McpCompletionSource;
  /** Items per page of `resources/list`. */
  listPageSize: number;
  /** Whether clients may subscribe to resources (`resources/subscribe`, `notifications/resources/updated`). */
  subscriptions: boolean;
  /** How the `requestState` of `InputRequiredResult`s is sealed; default a random key per process. */
  requestState?: McpRequestStateOptions;
  /** Serve the `io.modelcontextprotocol/tasks` extension (tools run work as tasks with `runAsTask`). */
  tasks?: McpTasksOptions;
}

/**
 * @rekog/mcp-nest's MCP strategy plus what its sessions lack: list changes and
 * resource updates reach sessions of every protocol era ({@link McpSessionBroadcaster}),
 * `resources/list` is paged, `resources/subscribe`, and `completion/complete`; tools may answer
 * with an `InputRequiredResult` (protocol 2026-07-28; on 2025-era sessions the SDK asks the client
 * itself), whose `requestState` is sealed and verified ({@link sealRequestState}).
 * @public
 */
export class S2spMcpStrategy extends McpStrategy {
  private decorated?: Map<string, DecoratedTool>;
  /** Tools registered at run time whose `_meta` declares parameters mirrored into headers. */
  private readonly runtimeHeaderMirroring = new Set<string>();

  constructor(
    options: McpStrategyOptions,
    private readonly surfaces: McpSurfaces,
  ) {
    // The servers' mutator asks this strategy which tools mirror headers; it exists once super() returns.
    const built: { strategy?: S2spMcpStrategy } = {};
    super({
      ...options,
      capabilities: withSurfaceCapabilities(options.capabilities, surfaces),
      serverMutator: sealedServers(options, surfaces.requestState, surfaces.tasks, (name) =>
        built.strategy ? built.strategy.mirrorsParamHeaders(name) : false,
      ),
    });
    built.strategy = this;
    // @rekog/mcp-nest turns any tool result without `content` into JSON text; an
    // InputRequiredResult must reach the SDK as it is.
    const strategy = this as unknown as { formatToolResult(result: unknown, schema: unknown): Promise<unknown> };
    const format = strategy.formatToolResult.bind(this);
    strategy.formatToolResult = (result, schema) =>
      isInputRequiredResult(result) || isCreateTaskResult(result) || refusalOf(result)
        ? Promise.resolve(result)
        : format(result, schema);
    const contexts = this as unknown as { buildContext(...args: unknown[]): McpContext };
    const build = contexts.buildContext.bind(this);
    contexts.buildContext = (...args) => relatedToRequest(build(...args));
  }

  override bindRequestHandlers(server: McpServer, session: McpSessionSeed, rawRequest?: unknown): void {
    super.bindRequestHandlers(server, session, rawRequest);
    const low = server.server;
    const { directory, completions, broadcaster } = this.surfaces;
    if (directory) {
      low.setRequestHandler('resources/list', async (request) => {
        const page = pageOf<Resource>(await directory.list(), request.params?.cursor, this.surfaces.listPageSize);
        return { resources: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      });
    }
    if (completions) {
      low.setRequestHandler('completion/complete', async (request) => {
        const values = [...(await completions.complete(request.params))];
        const shown = values.slice(0, MAX_COMPLETION_VALUES);
        return { completion: { values: shown, total: values.length, hasMore: values.length > shown.length } };
      });
    }
    // The stateless era has no session to notify or subscribe: each request is served on its own.
    if (session.era === 'modern') return;
    // A stateless request's server answers that request alone, as JSON: no notification reaches it.
    if (!session.stateless) broadcaster.track(server);
    if (this.surfaces.subscriptions) {
      low.setRequestHandler('resources/subscribe', (request) => {
        broadcaster.subscribe(server, request.params.uri);
        return {};
      });
      low.setRequestHandler('resources/unsubscribe', (request) => {
        broadcaster.unsubscribe(server, request.params.uri);
        return {};
      });
    }
  }

  override registerTool(...definition: Parameters<McpStrategy['registerTool']>): void {
    super.registerTool(...definition);
    const [tool] = definition;
    if (declaresParamHeaders(tool._meta)) this.runtimeHeaderMirroring.add(tool.name);
    else this.runtimeHeaderMirroring.delete(tool.name);
    this.announce('tools');
  }

  override removeTool(name: string): void {
    super.removeTool(name);
    this.runtimeHeaderMirroring.delete(name);
    this.announce('tools');
  }

  /** Whether clients mirror some of the tool `name`'s parameters into headers (`mcpParamHeaders`). */
  private mirrorsParamHeaders(name: string): boolean {
    return this.runtimeHeaderMirroring.has(name) || (this.decoratedTools().get(name)?.mirrorsParamHeaders ?? false);
  }

  override registerResource(...definition: Parameters<McpStrategy['registerResource']>): void {
    super.registerResource(...definition);
    this.announce('resources');
  }

  override removeResource(uri: string): void {
    super.removeResource(uri);
    this.announce('resources');
  }

  override registerPrompt(...definition: Parameters<McpStrategy['registerPrompt']>): void {
    super.registerPrompt(...definition);
    this.announce('prompts');
  }

  override removePrompt(name: string): void {
    super.removePrompt(name);
    this.announce('prompts');
  }

  /** The scopes a call of the decorated tool `name` requires; none for a tool without, or one not decorated. */
  requiredScopesOf(name: string): readonly string[] {
    return this.decoratedTools().get(name)?.scopes ?? [];
  }

  /** Every scope some decorated tool requires, sorted. */
  declaredScopes(): readonly string[] {
    return [...new Set([...this.decoratedTools().values()].flatMap((tool) => tool.scopes))].sort();
  }

  /** Whether some tool is an S2SP resource tool (the data plane then has something to serve). */
  issuesResources(): boolean {
    return [...this.decoratedTools().values()].some((tool) => tool.issuesResources);
  }

  /** Read once the handlers are bound (at the first request: the tools are all registered by then). */
  private decoratedTools(): Map<string, DecoratedTool> {
    this.decorated ??= new Map(decoratedTools(this.messageHandlers.values()).map((tool) => [tool.name, tool]));
    return this.decorated;
  }

  /** The library tells the stateless era itself; the sessions are told here. */
  private announce(kind: McpListKind): void {
    this.surfaces.broadcaster.listChanged(kind);
  }
}

/** Every server verifies echoed `requestState` (then the app's own mutator, if any, runs). */
function sealedServers(
  options: McpStrategyOptions,
  requestState: McpRequestStateOptions | undefined,
  tasks: McpTasksOptions | undefined,
  mirrorsParamHeaders: (toolName: string) => boolean,
): (server: McpServer) => McpServer {
  const store = tasks ? new McpTaskStore(tasks) : undefined;
  const { name, version, title, description, websiteUrl, icons } = options;
  const seal = withRequestStateIntegrity(
    { name, version, title, description, websiteUrl, icons },
    { instructions: options.instructions ?? '', ...(options.cacheHints ? { cacheHints: options.cacheHints } : {}) },
    requestState,
  );
  const mutate = options.serverMutator;
  return (server) => {
    const sealed = withStacklessCloseError(withMcpNestHandlerFixes(seal(server), mirrorsParamHeaders));
    if (store) serveTasks(sealed, store);
    return mutate ? mutate(sealed) : sealed;
  };
}

type ReadResourceHandler = (request: { params: { uri: string } }, ctx: unknown) => Promise<unknown>;

/**
 * What the handlers @rekog/mcp-nest registers lack, added as they are set: a `resources/read` of a
 * URI that matches no resource or template answers the SDK's ResourceNotFoundError, which names
 * the URI in `data.uri`, instead of a bare `-32602 Unknown resource`; `tools/list` annotates the
 * parameters tools mirror into headers ({@link mcpParamHeaders}); a protocol error a tool hands
 * back (`runAsTask`'s `-32021`) is answered as that error.
 */
function withMcpNestHandlerFixes(server: McpServer, mirrorsParamHeaders: (toolName: string) => boolean): McpServer {
  const low = server.server as unknown as { setRequestHandler(method: string, ...rest: unknown[]): void };
  const set = low.setRequestHandler.bind(low);
  const listTools = withParamHeaderMirroring(server, set, mirrorsParamHeaders);
  low.setRequestHandler = (method, ...rest) => {
    const [handler] = rest;
    if (rest.length === 1 && method === 'tools/list' && typeof handler === 'function') {
      listTools(handler);
      return;
    }
    if (rest.length === 1 && method === 'tools/call' && typeof handler === 'function') {
      const call = handler as (request: unknown, ctx: unknown) => Promise<unknown>;
      set(method, async (request: unknown, ctx: unknown) => {
        const result = await call(request, ctx);
        const refusal = refusalOf(result);
        if (refusal) throw refusal;
        return result;
      });
      return;
    }
    if (rest.length !== 1 || method !== 'resources/read' || typeof handler !== 'function') {
      set(method, ...rest);
      return;
    }
    const read = handler as ReadResourceHandler;
    const wrapped: ReadResourceHandler = async (request, ctx) => {
      try {
        return await read(request, ctx);
      } catch (error) {
        const uri = request.params.uri;
        const unknown =
          error instanceof ProtocolError &&
          !(error instanceof ResourceNotFoundError) &&
          error.code === Number(ProtocolErrorCode.InvalidParams) &&
          error.message.includes(`Unknown resource: ${uri}`);
        throw unknown ? new ResourceNotFoundError(uri) : error;
      }
    };
    set(method, wrapped);
  };
  return server;
}

function withSurfaceCapabilities(declared: ServerCapabilities | undefined, surfaces: McpSurfaces): ServerCapabilities {
  // Resources are always declared: a server without any answers resources/list and
  // resources/templates/list with empty lists (and their caching hints), which clients and the
  // conformance suite call whatever the capabilities say, instead of "Method not found".
  const capabilities: ServerCapabilities = {
    ...declared,
    resources: {
      listChanged: true,
      ...declared?.resources,
      ...(surfaces.subscriptions ? { subscribe: true } : {}),
    },
  };
  if (surfaces.completions) capabilities.completions = { ...capabilities.completions };
  return capabilities;
}
