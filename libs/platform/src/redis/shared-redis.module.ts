import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisOptions } from './redis-options';
import { validateRedisOptions } from './redis-options';
import { SharedRedis } from './shared-redis';

/** Token of this process's {@link SharedRedis}. */
export const SHARED_REDIS = Symbol('SHARED_REDIS');

@Injectable()
class SharedRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(SHARED_REDIS) private readonly redis: SharedRedis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.close();
  }
}

/**
 * Provides {@link SHARED_REDIS}, connected before the app starts (a wrong
 * REDIS_URL stops startup with a clear error) and closed at shutdown.
 */
@Module({})
export class SharedRedisModule {
  /** Validates `options` (throws naming the bad one) and connects when the app starts. */
  static forRoot(options: RedisOptions): DynamicModule {
    validateRedisOptions(options);
    return {
      module: SharedRedisModule,
      providers: [{ provide: SHARED_REDIS, useFactory: () => SharedRedis.connect(options) }, SharedRedisCloser],
      exports: [SHARED_REDIS],
    };
  }
}
