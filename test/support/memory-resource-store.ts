// The library's InMemoryResourceStore, recording every call, for tests of the store seam:
// a test can tell that the data plane went through it and not through the built-in Prisma store.
import {
  InMemoryResourceStore,
  type CachedResourceInfo,
  type ClaimedResource,
  type NewCachedResource,
} from '@s2sp/core';

export type StoreCall = 'save' | 'findLive' | 'claim' | 'sweepExpired';

export class MemoryResourceStore extends InMemoryResourceStore {
  readonly calls: StoreCall[] = [];
  readonly saved: NewCachedResource[] = [];

  override save(resource: NewCachedResource): Promise<CachedResourceInfo> {
    this.calls.push('save');
    this.saved.push(resource);
    return super.save(resource);
  }

  override findLive(tokenHash: string, now?: Date): Promise<CachedResourceInfo | null> {
    this.calls.push('findLive');
    return super.findLive(tokenHash, now);
  }

  override claim(tokenHash: string, now?: Date): Promise<ClaimedResource | null> {
    this.calls.push('claim');
    return super.claim(tokenHash, now);
  }

  override sweepExpired(now?: Date): Promise<number> {
    this.calls.push('sweepExpired');
    return super.sweepExpired(now);
  }
}
