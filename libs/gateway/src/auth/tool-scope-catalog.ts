import type { v1 } from '@s2sp/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { AgentsDownstream, type CallOrigin } from '../grpc/agents-downstream';
import { AgentsGrpcClients } from '../grpc/agents-grpc-clients';

/** What the gateway needs to know of a tool to narrow a caller's token for it. */
export interface ToolScopes {
  scopes: readonly string[];
  kind: string;
}

const PAGE_SIZE = 200;
const MAX_PAGES = 50;

/**
 * The tools the agents list (and the scopes each declares), cached for
 * `toolCatalog.ttlMs` and re-read when a call names a tool it does not know
 * (the agents may have reached an MCP server since), at most once per
 * `toolCatalog.missRefreshIntervalMs`. Read with a token that carries no scope
 * at all (the caller, authenticated, authorized for nothing).
 */
@Injectable()
export class ToolScopeCatalog {
  private tools = new Map<string, ToolScopes>();
  private descriptors: readonly v1.ToolDescriptor[] = Object.freeze([]);
  private resourceScopes: readonly string[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * The scopes of each named tool the agents know (merged over the servers that
   * have one of that name); names they do not know are left out.
   * `origin` is asked for only when the catalog must be (re)read.
   */
  async lookup(names: readonly string[], origin: () => Promise<CallOrigin>): Promise<Map<string, ToolScopes>> {
    const age = Date.now() - this.loadedAt;
    const missing = names.some((name) => !this.tools.has(name));
    if (
      this.loading ||
      age >= this.config.toolCatalog.ttlMs ||
      (missing && age >= this.config.toolCatalog.missRefreshIntervalMs)
    ) {
      await this.refresh(origin);
    }
    return new Map(names.filter((name) => this.tools.has(name)).map((name) => [name, this.tools.get(name)!]));
  }

  /**
   * Every tool the agents listed, as last read (re-read once older than
   * `toolCatalog.ttlMs`). The same array until the catalog is re-read.
   */
  async listing(origin: () => Promise<CallOrigin>): Promise<readonly v1.ToolDescriptor[]> {
    if (this.loading || Date.now() - this.loadedAt >= this.config.toolCatalog.ttlMs) await this.refresh(origin);
    return this.descriptors;
  }

  /** ms until a name the catalog does not know may make it re-read the agents' tools. */
  nextMissRefreshInMs(): number {
    return Math.max(0, this.loadedAt + this.config.toolCatalog.missRefreshIntervalMs - Date.now());
  }

  /** Scopes some S2SP resource tool requires: what a consumer's data-plane fetch may need. */
  dataScopes(): readonly string[] {
    return this.resourceScopes;
  }

  private refresh(origin: () => Promise<CallOrigin>): Promise<void> {
    this.loading ??= origin()
      .then((resolved) => this.load(resolved))
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  private async load(origin: CallOrigin): Promise<void> {
    const tools = new Map<string, ToolScopes>();
    const descriptors: v1.ToolDescriptor[] = [];
    let cursor = '';
    for (let page = 0; page < MAX_PAGES; page++) {
      const response = await this.downstream.call<v1.ListToolsResponse>(
        this.clients.toolService,
        'ListTools',
        { cursor, page_size: PAGE_SIZE, server: '' },
        origin,
      );
      descriptors.push(...(response.tools ?? []));
      for (const tool of response.tools ?? []) {
        const known = tools.get(tool.name);
        // Same name on two servers: a call must then name its server; narrow for both.
        const scopes = [...new Set([...(known?.scopes ?? []), ...(tool.required_scopes ?? [])])];
        tools.set(tool.name, { scopes, kind: known && known.kind !== tool.kind ? 'MIXED' : (tool.kind ?? '') });
      }
      cursor = response.next_cursor ?? '';
      if (cursor === '') break;
    }
    this.tools = tools;
    this.descriptors = Object.freeze(descriptors);
    this.resourceScopes = [
      ...new Set(
        [...tools.values()].filter((tool) => tool.kind === 'TOOL_KIND_S2SP_RESOURCE').flatMap((tool) => tool.scopes),
      ),
    ];
    this.loadedAt = Date.now();
  }
}
