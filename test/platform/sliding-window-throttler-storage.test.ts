import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { SharedRedis } from '@s2sp/platform';
import { RedisThrottlerStorage, SlidingWindowThrottlerStorage } from '@s2sp/platform';
import { ManualClock } from '../support/manual-clock';
import { deleteKeysUnder, isolatedRedisOptions, redisOrSkip } from '../support/redis';

const WINDOW = 60_000;

/** A storage of one kind on a clock the test moves; undefined after marking the test skipped. */
type StorageFactory = (t: TestContext, clock: ManualClock) => Promise<ThrottlerStorage | undefined>;

/** Redis connections opened by the Redis tests of this file, closed (and their keys deleted) at the end. */
const redisConnections: Array<{ redis: SharedRedis; prefix: string }> = [];

async function redisConnection(options = isolatedRedisOptions()): Promise<SharedRedis> {
  const redis = await SharedRedis.connect(options);
  redisConnections.push({ redis, prefix: options.keyPrefix });
  return redis;
}

after(async () => {
  for (const { redis, prefix } of redisConnections) {
    await deleteKeysUnder(redis, prefix);
    await redis.close();
  }
});

const STORAGES: Record<string, StorageFactory> = {
  SlidingWindowThrottlerStorage: async (_t, clock) => new SlidingWindowThrottlerStorage(WINDOW, clock.now),
  RedisThrottlerStorage: async (t, clock) =>
    (await redisOrSkip(t)) ? new RedisThrottlerStorage(await redisConnection(), clock.now) : undefined,
};

for (const [name, create] of Object.entries(STORAGES)) {
  describe(`${name}: the gateway's sliding window`, () => {
    test('allows `limit` calls per sliding window, then refuses until the oldest hit leaves it', async (t) => {
      const clock = new ManualClock();
      const storage = await create(t, clock);
      if (!storage) return;
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
      assert.equal(
        (await hit()).isBlocked,
        true,
        'refused calls are not counted, and the first hit is still in the window',
      );
      clock.advance(1);
      const allowed = await hit();
      assert.equal(allowed.isBlocked, false, 'the first hit has left the window');
      assert.equal(allowed.totalHits, 3);
    });

    test('keys and throttler names are counted apart', async (t) => {
      const storage = await create(t, new ManualClock());
      if (!storage) return;
      assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'json-rpc')).isBlocked, false);
      assert.equal((await storage.increment('bob', WINDOW, 1, 0, 'json-rpc')).isBlocked, false);
      assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'other')).isBlocked, false);
      assert.equal((await storage.increment('alice', WINDOW, 1, 0, 'json-rpc')).isBlocked, true);
    });

    test('a block duration refuses every call until it ends, even after the window has emptied', async (t) => {
      const clock = new ManualClock();
      const storage = await create(t, clock);
      if (!storage) return;
      await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc');
      const refused = await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc');
      assert.equal(refused.isBlocked, true);
      assert.equal(refused.timeToBlockExpire, 10);
      clock.advance(5_000);
      assert.equal(
        (await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc')).isBlocked,
        true,
        'the hit has expired, the block has not',
      );
      clock.advance(5_000);
      assert.equal((await storage.increment('alice', 1_000, 1, 10_000, 'json-rpc')).isBlocked, false);
    });
  });
}

describe('SlidingWindowThrottlerStorage in one process', () => {
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

describe('RedisThrottlerStorage shared by replicas', () => {
  test('concurrent calls through two connections (two gateway replicas) let exactly `limit` through', async (t) => {
    if (!(await redisOrSkip(t))) return;
    // Two replicas of one deployment: a connection each, the same key prefix.
    const deployment = isolatedRedisOptions();
    const replicas = [
      new RedisThrottlerStorage(await redisConnection(deployment)),
      new RedisThrottlerStorage(await redisConnection(deployment)),
    ];
    const limit = 25;
    const records = await Promise.all(
      Array.from({ length: 60 }, (_, index) => replicas[index % 2].increment('caller', WINDOW, limit, 0, 'json-rpc')),
    );
    const allowed = records.filter((record) => !record.isBlocked);
    assert.equal(allowed.length, limit);
    assert.deepEqual(
      allowed.map((record) => record.totalHits).sort((a, b) => a - b),
      Array.from({ length: limit }, (_, index) => index + 1),
      'each allowed call took its own slot',
    );
    assert.ok(
      records
        .filter((record) => record.isBlocked)
        .every((record) => record.timeToBlockExpire > 0 && record.totalHits === limit + 1),
    );
  });
});
