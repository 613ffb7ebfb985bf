import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SlidingWindowThrottlerStorage } from '../../apps/gateway/src/rate-limit/sliding-window-throttler-storage';
import { ManualClock } from '../support/manual-clock';

const WINDOW = 60_000;

describe('SlidingWindowThrottlerStorage', () => {
  test('allows `limit` calls per sliding window, then refuses until the oldest hit leaves it', async () => {
    const clock = new ManualClock();
    const storage = new SlidingWindowThrottlerStorage(WINDOW, clock.now);
    const hit = () => storage.increment('alice', WINDOW, 3, 0, 'json-rpc');
    assert.deepEqual(await hit(), { totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    clock.advance(10_000);
    assert.equal((await hit()).totalHits, 2);
    clock.advance(10_000);
    assert.equal((await hit()).isBlocked, false);
    clock.advance(10_000);
    const refused = await hit();
    assert.equal(refused.isBlocked, true);
    assert.equal(refused.totalHits, 4, 'like the library: the refused call is reported on top of the counted ones');
    assert.equal(refused.timeToBlockExpire, 30, 'the first hit leaves the window 30 s from now');

    clock.advance(29_999);
    assert.equal((await hit()).isBlocked, true, 'refused calls are not counted, and the first hit is still in the window');
    clock.advance(1);
    const allowed = await hit();
    assert.equal(allowed.isBlocked, false, 'the first hit has left the window');
    assert.equal(allowed.totalHits, 3);
  });

  test('keys and throttler names are counted apart', async () => {
    const storage = new SlidingWindowThrottlerStorage(WINDOW, new ManualClock().now);
    assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'json-rpc')).isBlocked, false);
    assert.equal((await storage.increment('bob', WINDOW, 1, 0, 'json-rpc')).isBlocked, false);
    assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'other')).isBlocked, false);
    assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'json-rpc')).isBlocked, true);
  });

  test('a block duration refuses every call until it ends, even after the window has emptied', async () => {
    const clock = new ManualClock();
    const storage = new SlidingWindowThrottlerStorage(WINDOW, clock.now);
    await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc');
    const refused = await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc');
    assert.equal(refused.isBlocked, true);
    assert.equal(refused.timeToBlockExpire, 10);
    clock.advance(5_000);
    assert.equal((await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc')).isBlocked, true, 'the hit has expired, the block has not');
    clock.advance(5_000);
    assert.equal((await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc')).isBlocked, false);
  });

  test('a limit far above what Math.min(...hits) can take is counted exactly', async () => {
    const storage = new SlidingWindowThrottlerStorage(WINDOW, new ManualClock().now);
    const limit = 200_000;
    for (let index = 0; index < limit; index++) {
      const record = await storage.increment('busy', WINDOW, limit, 0, 'json-rpc');
      if (record.isBlocked) assert.fail(`refused at hit ${index + 1}`);
    }
    const refused = await storage.increment('busy', WINDOW, limit, 0, 'json-rpc');
    assert.equal(refused.isBlocked, true);
    assert.equal(refused.timeToBlockExpire, 60);
  });

  test('keys with nothing left in their window are dropped by the sweep', async () => {
    const clock = new ManualClock();
    const storage = new SlidingWindowThrottlerStorage(WINDOW, clock.now);
    for (const caller of ['a', 'b', 'c']) await storage.increment(caller, 1_000, 5, 0, 'json-rpc');
    assert.equal(storage.size, 3);
    clock.advance(WINDOW);
    await storage.increment('d', 1_000, 5, 0, 'json-rpc');
    assert.equal(storage.size, 1, 'a, b and c were idle; only d remains');
  });
});
