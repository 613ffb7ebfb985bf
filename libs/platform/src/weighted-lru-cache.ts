/**
 * A map bounded by the total weight of its values (by default each weighs 1:
 * a bound on the number of entries), evicting the least recently used first.
 * A `Map` iterates in insertion order, so a use re-inserts its key and the
 * first key is always the oldest. A value heavier than the whole budget is
 * not kept; a budget of 0 keeps nothing.
 * @internal
 */
export class WeightedLruCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private readonly weigh: (value: V) => number;
  private total = 0;

  /**
   * @param options.weigh a value's weight (default 1);
   * @param options.budgetName how the caller's option for `maxWeight` is called, for the error on a bad one.
   */
  constructor(
    readonly maxWeight: number,
    options: { weigh?: (value: V) => number; budgetName?: string } = {},
  ) {
    if (!Number.isSafeInteger(maxWeight) || maxWeight < 0) {
      throw new RangeError(
        `${options.budgetName ?? 'maxWeight'} must be a whole number of at least 0, got ${maxWeight}`,
      );
    }
    this.weigh = options.weigh ?? (() => 1);
  }

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Total weight held. */
  get weight(): number {
    return this.total;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The value under `key`, without counting as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, evicted] of this.entries) {
      if (this.total <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.total -= evicted.weight;
    }
  }

  /** Removes the entry and returns its value, if there was one. */
  delete(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.total -= entry.weight;
    return entry.value;
  }

  /** Removes every entry whose value matches. */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.delete(key);
  }
}
