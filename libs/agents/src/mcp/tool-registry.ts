import type { RegisteredTool } from './registered-tool';

/**
 * The tools of every MCP server, in one stable order (server id, then tool
 * name). `version` grows whenever the set or any descriptor changes, so list
 * cursors can tell that the list they paged through is gone.
 */
export class ToolRegistry {
  private readonly byServer = new Map<string, { tools: RegisteredTool[]; fingerprint: string }>();
  private ordered: RegisteredTool[] = [];
  private currentVersion = 1;
  private dataScopes: string[] = [];

  get version(): number {
    return this.currentVersion;
  }

  /** Replaces one server's tools; returns whether anything changed. */
  replace(serverId: string, tools: readonly RegisteredTool[]): boolean {
    const sorted = [...tools].sort((a, b) => compare(a.name, b.name));
    const fingerprint = JSON.stringify(sorted);
    if (this.byServer.get(serverId)?.fingerprint === fingerprint) return false;
    this.byServer.set(serverId, { tools: sorted, fingerprint });
    this.ordered = [...this.byServer.keys()].sort(compare).flatMap((id) => this.byServer.get(id)?.tools ?? []);
    this.dataScopes = [
      ...new Set(this.ordered.filter((tool) => tool.kind === 'S2SP_RESOURCE').flatMap((tool) => tool.scopes)),
    ];
    this.currentVersion += 1;
    return true;
  }

  all(): readonly RegisteredTool[] {
    return this.ordered;
  }

  forServer(serverId: string): readonly RegisteredTool[] {
    return this.byServer.get(serverId)?.tools ?? [];
  }

  /** Every scope some S2SP resource tool requires: what a consumer's data-plane fetch may need. */
  resourceScopes(): readonly string[] {
    return this.dataScopes;
  }

  /** Every tool with this name, optionally on one server. */
  find(name: string, serverId?: string): RegisteredTool[] {
    const pool = serverId === undefined ? this.ordered : this.forServer(serverId);
    return pool.filter((tool) => tool.name === name);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
