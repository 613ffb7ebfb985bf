import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { openS2spDatabase, type S2spDatabase } from '@s2sp/core';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_DATABASE } from '../gateway.constants';

/**
 * The gateway's own database (idempotency records): PostgreSQL when
 * databaseUrl is a postgres URL, embedded PGlite in dataDir otherwise.
 * Migrations are applied on open.
 */
export const gatewayDatabaseProvider: Provider = {
  provide: GATEWAY_DATABASE,
  inject: [GATEWAY_CONFIG],
  useFactory: (config: GatewayConfig): Promise<S2spDatabase> =>
    openS2spDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
};

/** Closes the database once the HTTP server has stopped taking requests. */
@Injectable()
export class GatewayDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(GATEWAY_DATABASE) private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
