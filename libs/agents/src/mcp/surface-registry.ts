import { createHash } from 'node:crypto';
import { NO_SURFACES, type ServerSurfaces } from './server-surfaces';

/** The resources, resource templates and prompts of every MCP server, in server id order. */
export class SurfaceRegistry {
  private readonly byServer = new Map<string, ServerSurfaces>();
  /** Of the current content; computed on first use after a change. */
  private currentFingerprint: string | undefined;

  replace(serverId: string, surfaces: ServerSurfaces): void {
    this.byServer.set(serverId, surfaces);
    this.currentFingerprint = undefined;
  }

  /**
   * A digest of every server's surfaces: it changes whenever any of them does,
   * and is the same on every agents replica that lists the same surfaces (a
   * counter would differ from replica to replica). The gateway keeps the
   * ListSurfaces answer it fetched for as long as this stays the same.
   */
  get fingerprint(): string {
    this.currentFingerprint ??= createHash('sha256')
      .update(JSON.stringify([...this.byServer.keys()].sort().map((id) => [id, this.byServer.get(id)])))
      .digest('base64url')
      .slice(0, 22);
    return this.currentFingerprint;
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
