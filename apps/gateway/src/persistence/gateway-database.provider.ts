import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { openS2spDatabase, type S2spDatabase } from '@s2sp/core';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_DATABASE } from '../gateway.constants';

/**
 * The gateway's own database (idempotency records, audit): PostgreSQL when
 * databaseUrl is a postgres URL, embedded PGlite in dataDir otherwise.
 * Migrations are applied on open.
 */
function gatewayDatabaseProvider(config: GatewayConfig): Provider {
  return {
    provide: GATEWAY_DATABASE,
    useFactory: (): Promise<S2spDatabase> => openS2spDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  };
}

/** The gateway's database, global so the audit sink of AuthModule can write to it too. */
@Module({})
export class GatewayDatabaseModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayDatabaseModule,
      global: true,
      providers: [gatewayDatabaseProvider(config), GatewayDatabaseLifecycle],
      exports: [GATEWAY_DATABASE],
    };
  }
}

/** Closes the database once the HTTP server has stopped taking requests. */
@Injectable()
export class GatewayDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_DATABASE) private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
