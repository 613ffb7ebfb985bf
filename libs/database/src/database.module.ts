import {
  Module,
  type DynamicModule,
  type InjectionToken,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { type AsyncModuleOptions } from '@s2sp/platform';
import { asyncOptionsProviders } from '@s2sp/platform/internal';
import { openS2spDatabase, type S2spDatabase } from './database';

/** @public */
export interface DatabaseModuleOptions {
  /** The token the S2spDatabase is provided under (e.g. the app's own GATEWAY_DATABASE). */
  provide: InjectionToken;
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  databaseUrl?: string;
  dataDir: string;
}

/**
 * Where the database is: what a forRootAsync source makes at run time.
 * @public
 */
export type DatabaseLocation = Omit<DatabaseModuleOptions, 'provide'>;

/**
 * The token is fixed when the module is declared; the location is made at run time (`useFactory`, `useClass` or `useExisting`).
 * @public
 */
export type DatabaseModuleAsyncOptions = Pick<DatabaseModuleOptions, 'provide'> & AsyncModuleOptions<DatabaseLocation>;

const DATABASE_LOCATION = Symbol('DATABASE_LOCATION');

/** Closes the database when the app shuts down, after every beforeApplicationShutdown hook (final writes). */
class DatabaseCloser implements OnApplicationShutdown {
  constructor(private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/**
 * An app's own database (an embedded PostgreSQL server in dataDir, or PostgreSQL by databaseUrl,
 * migrated on open) behind its token, global so that other modules (e.g. the
 * audit sink of AuthModule) can use it too.
 * @public
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return DatabaseModule.build(options.provide, [{ provide: DATABASE_LOCATION, useValue: options }], []);
  }

  static forRootAsync(options: DatabaseModuleAsyncOptions): DynamicModule {
    const location = asyncOptionsProviders(
      'DatabaseModule',
      DATABASE_LOCATION,
      options,
      (given: DatabaseLocation) => given,
    );
    return DatabaseModule.build(options.provide, location, options.imports ?? []);
  }

  private static build(
    token: InjectionToken,
    locationProviders: Provider[],
    imports: NonNullable<ModuleMetadata['imports']>,
  ): DynamicModule {
    const closer = Symbol('DatabaseCloser');
    return {
      module: DatabaseModule,
      global: true,
      imports,
      providers: [
        ...locationProviders,
        {
          provide: token,
          inject: [DATABASE_LOCATION],
          useFactory: ({ databaseUrl, dataDir }: DatabaseLocation) => openS2spDatabase({ databaseUrl, dataDir }),
        },
        {
          provide: closer,
          useFactory: (database: S2spDatabase) => new DatabaseCloser(database),
          inject: [token],
        },
      ],
      exports: [token],
    };
  }
}
