// A ResourceStore kept in a Map, for tests of the store seam: it records every
// call so a test can tell that the data plane went through it and not through
// the built-in Prisma store.
import { randomUUID } from 'node:crypto';
import type { CachedResourceInfo, ClaimedResource, NewCachedResource, ResourceStore } from '@s2sp/core';

export type StoreCall = 'save' | 'findLive' | 'claim' | 'sweepExpired';

export class MemoryResourceStore implements ResourceStore {
  readonly calls: StoreCall[] = [];
  readonly saved: NewCachedResource[] = [];
  private readonly resources = new Map<
    string,
    { resource: NewCachedResource; info: CachedResourceInfo; consumed: boolean }
  >();

  async save(resource: NewCachedResource): Promise<CachedResourceInfo> {
    this.calls.push('save');
    this.saved.push(resource);
    const info: CachedResourceInfo = {
      id: randomUUID(),
      toolName: resource.toolName,
      columns: resource.columns,
      abstractDomains: resource.abstractDomains,
      bodyDomains: resource.bodyDomains,
      rowCount: resource.table.rowCount,
      caller: resource.caller ?? null,
      callerScopes: resource.callerScopes ?? null,
      requiredScopes: resource.requiredScopes ?? [],
      consumer: resource.consumer ?? null,
      createdAt: new Date(),
      expiresAt: resource.expiresAt,
    };
    this.resources.set(resource.tokenHash, { resource, info, consumed: false });
    return info;
  }

  async findLive(tokenHash: string, now = new Date()): Promise<CachedResourceInfo | null> {
    this.calls.push('findLive');
    const entry = this.resources.get(tokenHash);
    return entry && !entry.consumed && entry.info.expiresAt > now ? entry.info : null;
  }

  async claim(tokenHash: string, now = new Date()): Promise<ClaimedResource | null> {
    this.calls.push('claim');
    const entry = this.resources.get(tokenHash);
    if (!entry || entry.consumed || entry.info.expiresAt <= now) return null;
    entry.consumed = true;
    return { info: entry.info, table: entry.resource.table };
  }

  async sweepExpired(now = new Date()): Promise<number> {
    this.calls.push('sweepExpired');
    let removed = 0;
    for (const [tokenHash, entry] of this.resources) {
      if (entry.consumed || entry.info.expiresAt <= now) {
        this.resources.delete(tokenHash);
        removed += 1;
      }
    }
    return removed;
  }
}
