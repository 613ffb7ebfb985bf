import type { ThrottlerStorageRecord } from './throttler-storage-record';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { SharedRedis } from '../redis/shared-redis';

/**
 * One call of the sliding window of {@link SlidingWindowThrottlerStorage}, run
 * atomically inside Redis so that every gateway replica counts in the same
 * window. KEYS[1]: sorted set of hit expiries (score) per unique member;
 * KEYS[2]: the block's end. ARGV: ttl, limit, blockDuration, member, and the
 * time in ms ('' = Redis's clock, the one clock all replicas agree on).
 * Answers { totalHits, msToExpire, blocked (0/1), msToBlockExpire }.
 */
const SLIDING_WINDOW_SCRIPT = `
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])
local now = tonumber(ARGV[5])
if not now then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local count = redis.call('ZCARD', KEYS[1])
local function oldestExpiry()
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if oldest[2] then return tonumber(oldest[2]) end
  return now + ttl
end
local blockedUntil = tonumber(redis.call('GET', KEYS[2]) or '0')
if blockedUntil > now then
  return { count + 1, oldestExpiry() - now, 1, blockedUntil - now }
end
if count >= limit then
  local allowedAgainAt = oldestExpiry()
  if blockDuration > 0 then
    allowedAgainAt = now + blockDuration
    redis.call('SET', KEYS[2], allowedAgainAt, 'PX', blockDuration)
  end
  return { count + 1, oldestExpiry() - now, 1, allowedAgainAt - now }
end
local expiry = now + ttl
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) > expiry then expiry = tonumber(newest[2]) end
redis.call('ZADD', KEYS[1], expiry, ARGV[4])
redis.call('PEXPIRE', KEYS[1], expiry - now)
return { count + 1, oldestExpiry() - now, 0, 0 }
`;

const SCRIPT_COMMAND = 's2spSlidingWindowIncrement';

type ScriptedRedis = SharedRedis['client'] & {
  [SCRIPT_COMMAND](
    hits: string,
    block: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    member: string,
    now: string,
  ): Promise<number[]>;
};

/**
 * @nestjs/throttler storage shared by the gateway replicas (REDIS_URL): the
 * same sliding-window semantics as SlidingWindowThrottlerStorage (refused calls
 * are not counted; a hit's expiry never precedes an earlier one's), kept in
 * Redis and updated by one Lua script per call, so concurrent calls on
 * different replicas cannot both take the last slot. Idle keys expire in Redis
 * with their newest hit. `now` is for tests; by default Redis's clock is used.
 * @public
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: ScriptedRedis;

  constructor(
    private readonly shared: SharedRedis,
    private readonly now?: () => number,
  ) {
    shared.client.defineCommand(SCRIPT_COMMAND, { numberOfKeys: 2, lua: SLIDING_WINDOW_SCRIPT });
    this.redis = shared.client as ScriptedRedis;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    // The hash tag keeps both keys of one caller in one slot of a Redis Cluster.
    const base = this.shared.key('throttle', `{${throttlerName}:${key}}`);
    const [totalHits, msToExpire, blocked, msToBlockExpire] = await this.redis[SCRIPT_COMMAND](
      `${base}:hits`,
      `${base}:block`,
      ttl,
      limit,
      blockDuration,
      randomUUID(),
      this.now ? String(this.now()) : '',
    );
    return {
      totalHits: totalHits,
      timeToExpire: seconds(msToExpire),
      isBlocked: blocked === 1,
      timeToBlockExpire: seconds(msToBlockExpire),
    };
  }
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
