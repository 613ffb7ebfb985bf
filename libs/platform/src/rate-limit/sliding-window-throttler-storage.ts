import type { ThrottlerStorageRecord } from './throttler-storage-record';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** Hit expiries of one key, oldest first: a queue that drops expired hits from its head. */
class HitWindow {
  private expiries: number[] = [];
  private head = 0;
  blockedUntil = 0;

  get count(): number {
    return this.expiries.length - this.head;
  }

  /** When the oldest live hit expires (undefined when there is none). */
  get oldestExpiry(): number | undefined {
    return this.count > 0 ? this.expiries[this.head] : undefined;
  }

  prune(now: number): void {
    while (this.head < this.expiries.length && this.expiries[this.head] <= now) this.head++;
    if (this.head === this.expiries.length) {
      this.expiries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.expiries.length) {
      this.expiries = this.expiries.slice(this.head);
      this.head = 0;
    }
  }

  /** Keeps the queue ordered: a hit whose expiry would precede the newest one expires with it. */
  add(expiresAt: number): void {
    const newest = this.expiries[this.expiries.length - 1];
    this.expiries.push(newest !== undefined && newest > expiresAt ? newest : expiresAt);
  }
}

/**
 * @nestjs/throttler storage with a sliding window per key whose cost per call
 * does not grow with the number of hits in the window. The library's in-memory
 * storage filters every hit's expiry on each call and takes `Math.min(...)`
 * over all of them: tens of µs per call at a few thousand hits a minute, and a
 * RangeError once a window holds more hits than a call may have arguments
 * (limits above ~100,000). Idle keys are dropped by a sweep that runs at most
 * once a `sweepIntervalMs`, during a call (no timer).
 * @public
 */
export class SlidingWindowThrottlerStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, HitWindow>();
  private nextSweepAt: number;

  constructor(
    private readonly sweepIntervalMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.nextSweepAt = this.now() + sweepIntervalMs;
  }

  /** Keys that currently hold hits or a block (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    if (now >= this.nextSweepAt) this.sweep(now);
    const windowKey = `${throttlerName}\u0000${key}`;
    let window = this.windows.get(windowKey);
    if (!window) {
      window = new HitWindow();
      this.windows.set(windowKey, window);
    }
    window.prune(now);
    if (window.blockedUntil > now) return blocked(window, now, ttl, window.blockedUntil);
    if (window.count >= limit) {
      if (blockDuration > 0) window.blockedUntil = now + blockDuration;
      return blocked(window, now, ttl, blockDuration > 0 ? window.blockedUntil : (window.oldestExpiry ?? now));
    }
    window.add(now + ttl);
    return {
      totalHits: window.count,
      timeToExpire: secondsUntil(window.oldestExpiry ?? now + ttl, now),
      isBlocked: false,
      timeToBlockExpire: 0,
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      window.prune(now);
      if (window.count === 0 && window.blockedUntil <= now) this.windows.delete(key);
    }
    this.nextSweepAt = now + this.sweepIntervalMs;
  }
}

function blocked(window: HitWindow, now: number, ttl: number, allowedAgainAt: number): ThrottlerStorageRecord {
  return {
    totalHits: window.count + 1,
    timeToExpire: secondsUntil(window.oldestExpiry ?? now + ttl, now),
    isBlocked: true,
    timeToBlockExpire: secondsUntil(allowedAgainAt, now),
  };
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}
