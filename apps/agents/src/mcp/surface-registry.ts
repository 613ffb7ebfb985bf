import { NO_SURFACES, type ServerSurfaces } from './server-surfaces';

/** The resources, resource templates and prompts of every MCP server, in server id order. */
export class SurfaceRegistry {
  private readonly byServer = new Map<string, ServerSurfaces>();

  replace(serverId: string, surfaces: ServerSurfaces): void {
    this.byServer.set(serverId, surfaces);
  }

  /** One server's, or every server's (sorted by server id) when `serverId` is empty. */
  of(serverId: string): ServerSurfaces {
    if (serverId !== '') return this.byServer.get(serverId) ?? NO_SURFACES;
    const ids = [...this.byServer.keys()].sort();
    const all = ids.map((id) => this.byServer.get(id)!);
    return {
      resources: all.flatMap((surfaces) => surfaces.resources),
      resourceTemplates: all.flatMap((surfaces) => surfaces.resourceTemplates),
      prompts: all.flatMap((surfaces) => surfaces.prompts),
    };
  }
}
