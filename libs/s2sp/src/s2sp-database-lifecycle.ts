import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { S2SP_DATABASE } from './config/s2sp.constants';
import type { S2spDatabase } from '@s2sp/database';

/** Closes the database the module opened when the app shuts down. */
@Injectable()
export class S2spDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(S2SP_DATABASE) private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
