import type { McpServer, Resource, ServerCapabilities } from '@modelcontextprotocol/server';
import { McpStrategy } from '@rekog/mcp-nest';
import { MAX_COMPLETION_VALUES, type McpCompletionSource } from './mcp-completion-source';
import type { McpResourceDirectory } from './mcp-resource-directory';
import type { McpListKind, McpSessionBroadcaster } from './mcp-session-broadcaster';
import { pageOf } from './list-cursor';
import { toolRequiredScopes } from './tool-required-scopes';

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
}

/**
 * @rekog/mcp-nest's MCP strategy plus what its sessions lack: list changes and
 * resource updates reach sessions of every protocol era ({@link McpSessionBroadcaster}),
 * `resources/list` is paged, `resources/subscribe`, and `completion/complete`.
 * @public
 */
export class S2spMcpStrategy extends McpStrategy {
  private scopesByTool?: Map<string, readonly string[]>;

  constructor(
    options: McpStrategyOptions,
    private readonly surfaces: McpSurfaces,
  ) {
    super({ ...options, capabilities: withSurfaceCapabilities(options.capabilities, surfaces) });
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
    broadcaster.track(server);
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
    this.announce('tools');
  }

  override removeTool(name: string): void {
    super.removeTool(name);
    this.announce('tools');
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
    return this.toolScopes().get(name) ?? [];
  }

  /** Every scope some decorated tool requires, sorted. */
  declaredScopes(): readonly string[] {
    return [...new Set([...this.toolScopes().values()].flat())].sort();
  }

  /** Read once the handlers are bound (at the first request: the tools are all registered by then). */
  private toolScopes(): Map<string, readonly string[]> {
    this.scopesByTool ??= toolRequiredScopes(this.messageHandlers.values());
    return this.scopesByTool;
  }

  /** The library tells the stateless era itself; the sessions are told here. */
  private announce(kind: McpListKind): void {
    this.surfaces.broadcaster.listChanged(kind);
  }
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
