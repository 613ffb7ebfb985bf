import { envInt, envOptional, envString } from '../env';

/**
 * Where the replicas of an app keep the state they share (rate-limit counters,
 * task events). Unset: the app keeps that state in its own process, as a single
 * replica needs no Redis (docs/scale-out.md).
 * @public
 */
export interface RedisOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string;
  /** Prefixed to every key and channel, so that several deployments (or test runs) can share one Redis. */
  keyPrefix: string;
  /** How long connecting may take at startup before the app refuses to start. */
  connectTimeoutMs: number;
  /** A command that gets no answer within this is failed (never queued forever while Redis is away). */
  commandTimeoutMs: number;
}

export const DEFAULT_REDIS_KEY_PREFIX = 's2sp:';
export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 2_000;

/**
 * REDIS_URL (unset: no shared state), REDIS_KEY_PREFIX (default `s2sp:`),
 * REDIS_CONNECT_TIMEOUT_MS and REDIS_COMMAND_TIMEOUT_MS; throws naming a malformed variable.
 * @public
 */
export function redisOptionsFromEnv(): RedisOptions | undefined {
  const url = envOptional('REDIS_URL');
  if (url === undefined) return undefined;
  return validateRedisOptions(
    {
      url,
      keyPrefix: envString('REDIS_KEY_PREFIX', DEFAULT_REDIS_KEY_PREFIX),
      connectTimeoutMs: envInt('REDIS_CONNECT_TIMEOUT_MS', DEFAULT_REDIS_CONNECT_TIMEOUT_MS, { min: 1 }),
      commandTimeoutMs: envInt('REDIS_COMMAND_TIMEOUT_MS', DEFAULT_REDIS_COMMAND_TIMEOUT_MS, { min: 1 }),
    },
    'REDIS_URL',
  );
}

/**
 * Rejects options that cannot work, naming `setting`; the message never repeats the URL (it may hold a password).
 * @internal
 */
export function validateRedisOptions(options: RedisOptions, setting = 'redis'): RedisOptions {
  let protocol: string;
  try {
    protocol = new URL(options.url).protocol;
  } catch {
    throw new Error(`${setting} must be a redis:// or rediss:// URL; got something that is not a URL`);
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    throw new Error(`${setting} must be a redis:// or rediss:// URL; got a ${protocol} URL`);
  if (typeof options.keyPrefix !== 'string' || /\s/.test(options.keyPrefix))
    throw new Error(`${setting} key prefix must be a string without spaces`);
  for (const name of ['connectTimeoutMs', 'commandTimeoutMs'] as const) {
    if (!Number.isSafeInteger(options[name]) || options[name] < 1)
      throw new Error(`${setting} ${name} must be a positive integer; got ${options[name]}`);
  }
  return options;
}
