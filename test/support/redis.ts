// The test Redis (127.0.0.1:6379 on the project's machines, REDIS_URL elsewhere):
// skipped with the reason printed where it is not reachable, unless
// S2SP_REQUIRE_REDIS=1 (CI), as for PostgreSQL.
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import Redis from 'ioredis';
import { SharedRedis, type RedisOptions } from '@s2sp/platform';

export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';

export function redisTestUrl(): string {
  return process.env.S2SP_TEST_REDIS_URL || DEFAULT_TEST_REDIS_URL;
}

export function redisRequired(): boolean {
  return process.env.S2SP_REQUIRE_REDIS === '1';
}

let availability: Promise<string | undefined> | undefined;

/** Why Redis cannot be used (undefined when it answers PING); checked once per process. */
export function redisUnavailableReason(): Promise<string | undefined> {
  availability ??= (async () => {
    const client = new Redis(redisTestUrl(), {
      lazyConnect: true,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return undefined;
    } catch (error) {
      return `Redis not reachable at ${new URL(redisTestUrl()).host} (${error instanceof Error ? error.message : String(error)})`;
    } finally {
      client.disconnect();
    }
  })();
  return availability;
}

/**
 * True when Redis answers. Otherwise marks the test skipped with the reason
 * (printed by the runner) and returns false, or throws when S2SP_REQUIRE_REDIS=1.
 */
export async function redisOrSkip(t: TestContext): Promise<boolean> {
  const reason = await redisUnavailableReason();
  if (reason === undefined) return true;
  if (redisRequired()) throw new Error(`S2SP_REQUIRE_REDIS=1 but ${reason}`);
  t.skip(`${reason}; set S2SP_REQUIRE_REDIS=1 to make this a failure`);
  return false;
}

/** Options of a connection whose keys and channels no other test run shares. */
export function isolatedRedisOptions(): RedisOptions {
  return {
    url: redisTestUrl(),
    keyPrefix: `s2sp-test-${randomBytes(6).toString('hex')}:`,
    connectTimeoutMs: 3_000,
    commandTimeoutMs: 3_000,
  };
}

/** Deletes every key under the prefix of `redis` (the end of a test run). */
export async function deleteKeysUnder(redis: SharedRedis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
