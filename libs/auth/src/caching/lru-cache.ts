/**
 * A map of at most `maxEntries` entries that evicts the least recently used
 * one. A `Map` iterates in insertion order, so a read re-inserts its key and
 * the first key is always the oldest: every operation is O(1).
 * `maxEntries` 0 stores nothing.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 0) throw new RangeError(`maxEntries must be a whole number of at least 0, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.maxEntries === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
