import { Inject, Injectable, Optional, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { DEFAULT_BREAKER_MINIMUM_BUDGET_MS, type AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { mcpAudienceOf } from '../config/mcp-server-list';
import { SamplingService } from '../sampling/sampling.service';
import { DiscoveryCredentials } from './discovery-credentials.service';
import { OutputSchemaValidators } from './output-schema-validators';
import { AGENTS_CLIENT_INFO } from './mcp-client-info';
import { McpServerConnection, type McpCallBudget } from './mcp-server-connection';
import { DEFAULT_MCP_PROTOCOL } from './mcp-protocol-mode';
import type { RegisteredTool } from './registered-tool';
import { AmbiguousToolError, ToolNotFoundError, UnknownMcpServerError } from './tool-call-errors';
import { SurfaceRegistry } from './surface-registry';
import { ToolRegistry } from './tool-registry';

/**
 * The MCP servers the agents use: one McpServerConnection each, and the
 * ToolRegistry their discoveries feed. Starting never fails because a
 * server is down; tools appear once it can be reached.
 */
@Injectable()
export class McpConnectorService implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly registry = new ToolRegistry();
  /** Resources, resource templates and prompts, listed with the tools. */
  readonly surfaces = new SurfaceRegistry();
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly logger = new Logger('McpConnector');

  private readonly audiences = new Map<string, string>();

  constructor(
    @Inject(AGENTS_CONFIG) config: AgentsConfig,
    sampling: SamplingService,
    @Optional() discovery?: DiscoveryCredentials,
    @Optional() metrics?: TelemetryMetrics,
  ) {
    const outputValidators = new OutputSchemaValidators();
    for (const endpoint of config.mcpServers) {
      const audience = mcpAudienceOf(endpoint);
      this.audiences.set(endpoint.id, audience);
      this.connections.set(
        endpoint.id,
        new McpServerConnection({
          endpoint,
          breaker: {
            ...config.breaker,
            minimumBudgetMs: config.breaker.minimumBudgetMs ?? DEFAULT_BREAKER_MINIMUM_BUDGET_MS,
          },
          connectTimeoutMs: config.mcp.connectTimeoutMs,
          callTimeoutMs: config.mcp.callTimeoutMs,
          reconnectInitialDelayMs: config.mcp.reconnectInitialDelayMs,
          reconnectMaxDelayMs: config.mcp.reconnectMaxDelayMs,
          protocol: config.mcp.protocol ?? DEFAULT_MCP_PROTOCOL,
          clientInfo: { ...AGENTS_CLIENT_INFO },
          outputValidators,
          clientRequests: {
            createMessage: (serverId, params, signal) => sampling.createMessage(serverId, params, signal),
            listRoots: (serverId) => sampling.roots(serverId),
          },
          connectionAuthorization: discovery ? () => discovery.authorizationFor(audience) : undefined,
          onTools: (serverId, tools) => {
            if (this.registry.replace(serverId, tools)) {
              this.logger.log(
                `Tools of MCP server "${serverId}" changed: ${tools.length} tools (registry version ${this.registry.version})`,
              );
            }
          },
          onSurfaces: (serverId, surfaces) => this.surfaces.replace(serverId, surfaces),
          logger: this.logger,
        }),
      );
    }
    for (const connection of this.connections.values()) {
      metrics?.observeCircuitBreaker(`mcp:${connection.id}`, () => connection.status().circuit.state);
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.start()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  servers(): McpServerConnection[] {
    return [...this.connections.values()];
  }

  /** The audience tokens for this server are minted for; UnknownMcpServerError for an unknown server. */
  audienceOf(serverId: string): string {
    const audience = this.audiences.get(serverId);
    if (audience === undefined) throw new UnknownMcpServerError(serverId, [...this.connections.keys()]);
    return audience;
  }

  /** The connection of a configured server; UnknownMcpServerError otherwise. */
  connection(serverId: string): McpServerConnection {
    const connection = this.connections.get(serverId);
    if (!connection) throw new UnknownMcpServerError(serverId, [...this.connections.keys()]);
    return connection;
  }

  /**
   * The one tool called `name` (on `serverId` when given). Servers not
   * connected yet are tried first when the tool is not known, so a server
   * that came up late is found. Throws ToolNotFoundError,
   * AmbiguousToolError, UnknownMcpServerError or, for a named server that
   * cannot be reached, McpServerUnavailableError.
   */
  async resolveTool(name: string, serverId: string | undefined, budget: McpCallBudget): Promise<RegisteredTool> {
    if (serverId !== undefined) {
      const connection = this.connection(serverId);
      if (this.registry.find(name, serverId).length === 0 && !connection.connected)
        await connection.ensureConnected(budget);
      const [tool] = this.registry.find(name, serverId);
      if (!tool) throw new ToolNotFoundError(name, serverId);
      return tool;
    }
    let matches = this.registry.find(name);
    if (matches.length === 0) {
      const offline = this.servers().filter((connection) => !connection.connected);
      await Promise.allSettled(offline.map((connection) => connection.ensureConnected(budget)));
      matches = this.registry.find(name);
      if (matches.length === 0) {
        throw new ToolNotFoundError(
          name,
          undefined,
          this.servers()
            .filter((connection) => !connection.connected)
            .map((connection) => connection.id),
        );
      }
    }
    if (matches.length > 1)
      throw new AmbiguousToolError(
        name,
        matches.map((tool) => tool.serverId),
      );
    return matches[0];
  }
}
