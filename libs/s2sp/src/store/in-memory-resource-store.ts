import type { CachedResourceInfo, ClaimedResource, NewCachedResource, ResourceStore } from './resource-store.interface';
import { newResourceInfo } from './new-resource-info';
import type { ResourceTable } from './resource-table';

interface HeldResource {
  info: CachedResourceInfo;
  table: ResourceTable;
}

/**
 * A ResourceStore in this process's memory, for development and tests: no
 * database, nothing to install. Claims are atomic within the process (a claim
 * takes the resource out of the map in one synchronous step), resources expire
 * with their TTL, and consumed ones are gone at once. It is for one process
 * only: another replica cannot serve its resource_urls, and everything it
 * holds is lost on restart. Production keeps the default store of
 * `@s2sp/database` (PostgreSQL), or a ResourceStore of its own.
 *
 * `S2spModule.forRoot({ resourceStore: { useValue: new InMemoryResourceStore() } })`
 * @public
 */
export class InMemoryResourceStore implements ResourceStore {
  private readonly resources = new Map<string, HeldResource>();

  async save(resource: NewCachedResource): Promise<CachedResourceInfo> {
    const info = newResourceInfo(resource);
    if (this.resources.has(resource.tokenHash))
      throw new Error('InMemoryResourceStore: a resource with this token hash exists already');
    this.resources.set(resource.tokenHash, { info, table: resource.table });
    return info;
  }

  async findLive(tokenHash: string, now: Date = new Date()): Promise<CachedResourceInfo | null> {
    const held = this.resources.get(tokenHash);
    return held !== undefined && held.info.expiresAt > now ? held.info : null;
  }

  async claim(tokenHash: string, now: Date = new Date()): Promise<ClaimedResource | null> {
    const held = this.resources.get(tokenHash);
    if (held === undefined) return null;
    // Single use: the resource leaves the store with its first claim, expired or not.
    this.resources.delete(tokenHash);
    return held.info.expiresAt > now ? held : null;
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    let removed = 0;
    for (const [tokenHash, held] of this.resources) {
      if (held.info.expiresAt <= now) {
        this.resources.delete(tokenHash);
        removed += 1;
      }
    }
    return removed;
  }

  /** How many live or expired-but-unswept resources are held. */
  get size(): number {
    return this.resources.size;
  }
}
