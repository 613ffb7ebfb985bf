import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { RedisOptions } from './redis-options';

/**
 * This process's connection to the Redis the replicas share, with the key
 * prefix of the deployment. Commands fail after `commandTimeoutMs` instead of
 * waiting for a reconnect; `subscriber()` opens the extra connection a
 * SUBSCRIBE needs (a subscribed connection can run no other command).
 * @public
 */
export class SharedRedis {
  private readonly logger = new Logger('Redis');
  private readonly connections: Redis[] = [];

  private constructor(
    /** The connection for commands (not for SUBSCRIBE). */
    readonly client: Redis,
    private readonly options: RedisOptions,
  ) {
    this.track(client);
  }

  /** Connects, or throws a clear error (without the URL, which may hold a password) when Redis does not answer in time. */
  static async connect(options: RedisOptions): Promise<SharedRedis> {
    const shared = new SharedRedis(createClient(options), options);
    await shared.ready(shared.client);
    return shared;
  }

  /** `keyPrefix` + the parts joined by ':'. */
  key(...parts: string[]): string {
    return `${this.options.keyPrefix}${parts.join(':')}`;
  }

  /** A new connection for SUBSCRIBE; closed with the others. */
  async subscriber(): Promise<Redis> {
    const connection = this.track(createClient(this.options));
    await this.ready(connection);
    return connection;
  }

  /** Closes every connection it opened. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.quit().catch(() => connection.disconnect())));
  }

  private track(connection: Redis): Redis {
    this.connections.push(connection);
    // ioredis reconnects by itself; without a listener an 'error' event would crash the process.
    connection.on('error', (error: Error) => this.logger.warn(`Redis connection error: ${error.message}`));
    return connection;
  }

  private async ready(connection: Redis): Promise<void> {
    try {
      await connection.connect();
    } catch (error) {
      connection.disconnect();
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`Could not connect to Redis (REDIS_URL) within ${this.options.connectTimeoutMs} ms: ${detail}`);
    }
  }
}

/** ioredis (about 40 modules) loads in the processes that connect to Redis, not in every one importing the platform. */
function createClient(options: RedisOptions): Redis {
  const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
  return new RedisClient(options.url, {
    lazyConnect: true,
    connectTimeout: options.connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    maxRetriesPerRequest: 1,
    // Fail commands at once while disconnected rather than queueing them until Redis returns.
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}
