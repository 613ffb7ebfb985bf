import type { CachedResourceInfo } from './resource-store.interface';
import type { ResourceTable } from './resource-table';

/** A resource this process issued: its metadata and its table. */
export interface CachedResource {
  info: CachedResourceInfo;
  table: ResourceTable;
}

/**
 * The tables this process issued, by token hash, bounded in size: the least
 * recently used are dropped first, and a table larger than the whole budget
 * is not kept at all. A dropped table is read back from the database.
 */
export class ResourceTableCache {
  private readonly tables = new Map<string, CachedResource>();
  private size = 0;

  /** @param maxLength Budget in encoded length (UTF-16 code units, about bytes for ASCII data); 0 disables the cache. */
  constructor(private readonly maxLength: number) {}

  /** Keeps an encoded (or decoded) table: its encoded length is its weight. */
  set(tokenHash: string, resource: CachedResource): void {
    this.delete(tokenHash);
    const length = weightOf(resource);
    if (length > this.maxLength) return;
    this.tables.set(tokenHash, resource);
    this.size += length;
    for (const [oldest, evicted] of this.tables) {
      if (this.size <= this.maxLength) break;
      this.tables.delete(oldest);
      this.size -= weightOf(evicted);
    }
  }

  /** The table, now the most recently used; undefined when not (or no longer) held. */
  get(tokenHash: string): CachedResource | undefined {
    const resource = this.tables.get(tokenHash);
    if (resource === undefined) return undefined;
    this.tables.delete(tokenHash);
    this.tables.set(tokenHash, resource);
    return resource;
  }

  /** Removes and returns the table: a claimed resource is served once and then forgotten. */
  take(tokenHash: string): CachedResource | undefined {
    const resource = this.tables.get(tokenHash);
    this.delete(tokenHash);
    return resource;
  }

  delete(tokenHash: string): void {
    const resource = this.tables.get(tokenHash);
    if (resource === undefined) return;
    this.tables.delete(tokenHash);
    this.size -= weightOf(resource);
  }

  /** Drops every resource whose lifetime ended. */
  deleteExpired(now: Date): void {
    for (const [tokenHash, resource] of this.tables) if (resource.info.expiresAt <= now) this.delete(tokenHash);
  }

  /** Metadata without touching recency (a validation read, not a use). */
  peekInfo(tokenHash: string): CachedResourceInfo | undefined {
    return this.tables.get(tokenHash)?.info;
  }

  get usedLength(): number {
    return this.size;
  }

  get count(): number {
    return this.tables.size;
  }
}

function weightOf(resource: CachedResource): number {
  const length = resource.table.encodedLength;
  if (length === undefined) throw new Error(`The table of resource ${resource.info.id} is cached before it was encoded`);
  return length;
}
