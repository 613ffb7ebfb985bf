import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { asyncOptionsProviders, type AsyncModuleOptions } from '../async-module-options';
import type { RedisOptions } from './redis-options';
import { validateRedisOptions } from './redis-options';
import { SharedRedis } from './shared-redis';

/**
 * Token of this process's {@link SharedRedis}.
 * @public
 */
export const SHARED_REDIS = Symbol('SHARED_REDIS');

/** The options the connection is made with (undefined: none is made). */
const SHARED_REDIS_OPTIONS = Symbol('SHARED_REDIS_OPTIONS');

/**
 * Options made at run time (`useFactory`, `useClass` or `useExisting`). A source
 * that makes `undefined` connects nothing, and SHARED_REDIS is then `undefined`:
 * for an app whose configuration decides whether there is a Redis at all.
 * @public
 */
export type SharedRedisModuleAsyncOptions = AsyncModuleOptions<RedisOptions | undefined>;

@Injectable()
class SharedRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(SHARED_REDIS) private readonly redis: SharedRedis | undefined) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}

/**
 * Provides {@link SHARED_REDIS}, connected before the app starts (a wrong
 * REDIS_URL stops startup with a clear error) and closed at shutdown.
 * @public
 */
@Module({})
export class SharedRedisModule {
  /** Validates `options` (throws naming the bad one) and connects when the app starts. */
  static forRoot(options: RedisOptions): DynamicModule {
    validateRedisOptions(options);
    return SharedRedisModule.build([{ provide: SHARED_REDIS_OPTIONS, useValue: options }], []);
  }

  /** Validates the options when the source has made them, and connects when the app starts. */
  static forRootAsync(options: SharedRedisModuleAsyncOptions): DynamicModule {
    const providers = asyncOptionsProviders(
      'SharedRedisModule',
      SHARED_REDIS_OPTIONS,
      options,
      (given: RedisOptions | undefined) => given && validateRedisOptions(given),
    );
    return SharedRedisModule.build(providers, options.imports ?? []);
  }

  private static build(optionProviders: Provider[], imports: NonNullable<ModuleMetadata['imports']>): DynamicModule {
    return {
      module: SharedRedisModule,
      imports,
      providers: [
        ...optionProviders,
        {
          provide: SHARED_REDIS,
          inject: [SHARED_REDIS_OPTIONS],
          useFactory: (options: RedisOptions | undefined) => options && SharedRedis.connect(options),
        },
        SharedRedisCloser,
      ],
      exports: [SHARED_REDIS],
    };
  }
}
