import { WeightedLruCache } from '@s2sp/platform/internal';
import type { CachedResourceInfo } from './resource-store.interface';
import type { ResourceTable } from './resource-table';

/** A resource this process issued: its metadata and its table. */
export interface CachedResource {
  info: CachedResourceInfo;
  table: ResourceTable;
}

/**
 * The tables this process issued, by token hash, bounded by their encoded
 * length: the least recently used are dropped first, and a table larger than
 * the whole budget is not kept at all. A dropped table is read back from the database.
 */
export class ResourceTableCache {
  private readonly tables: WeightedLruCache<string, CachedResource>;

  /** @param maxLength Budget in encoded length (UTF-16 code units, about bytes for ASCII data); 0 disables the cache. */
  constructor(maxLength: number) {
    this.tables = new WeightedLruCache(maxLength, { weigh: weightOf, budgetName: 'resourceCacheBytes' });
  }

  /** Keeps an encoded (or decoded) table: its encoded length is its weight. */
  set(tokenHash: string, resource: CachedResource): void {
    this.tables.set(tokenHash, resource);
  }

  /** The table, now the most recently used; undefined when not (or no longer) held. */
  get(tokenHash: string): CachedResource | undefined {
    return this.tables.get(tokenHash);
  }

  /** Removes and returns the table: a claimed resource is served once and then forgotten. */
  take(tokenHash: string): CachedResource | undefined {
    return this.tables.delete(tokenHash);
  }

  delete(tokenHash: string): void {
    this.tables.delete(tokenHash);
  }

  /** Drops every resource whose lifetime ended. */
  deleteExpired(now: Date): void {
    this.tables.deleteWhere((resource) => resource.info.expiresAt <= now);
  }

  /** Metadata without touching recency (a validation read, not a use). */
  peekInfo(tokenHash: string): CachedResourceInfo | undefined {
    return this.tables.peek(tokenHash)?.info;
  }

  get usedLength(): number {
    return this.tables.weight;
  }

  get count(): number {
    return this.tables.size;
  }
}

function weightOf(resource: CachedResource): number {
  const length = resource.table.encodedLength;
  if (length === undefined)
    throw new Error(`The table of resource ${resource.info.id} is cached before it was encoded`);
  return length;
}
