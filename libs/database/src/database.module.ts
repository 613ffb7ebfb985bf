import { Module, type DynamicModule, type InjectionToken, type OnApplicationShutdown } from '@nestjs/common';
import { openS2spDatabase, type S2spDatabase } from './database';

export interface DatabaseModuleOptions {
  /** The token the S2spDatabase is provided under (e.g. the app's own GATEWAY_DATABASE). */
  provide: InjectionToken;
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  databaseUrl?: string;
  dataDir: string;
}

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
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    const closer = Symbol('DatabaseCloser');
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: options.provide,
          useFactory: () => openS2spDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir }),
        },
        {
          provide: closer,
          useFactory: (database: S2spDatabase) => new DatabaseCloser(database),
          inject: [options.provide],
        },
      ],
      exports: [options.provide],
    };
  }
}
