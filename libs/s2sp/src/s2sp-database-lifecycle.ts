import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { S2SP_DATABASE } from './config/s2sp.constants';
import type { SqlDatabase } from '@s2sp/platform/internal';

/** Closes the database the module opened when the app shuts down. */
@Injectable()
export class S2spDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(S2SP_DATABASE) private readonly database: SqlDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
