import { Inject, Injectable, OnApplicationShutdown, type Provider } from '@nestjs/common';
import { openS2spDatabase, type S2spDatabase } from '@s2sp/core';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG, AGENTS_DATABASE } from '../agents.tokens';

/** Opens the tasks database (PGlite in dataDir, or PostgreSQL by databaseUrl) and applies migrations. */
export const agentsDatabaseProvider: Provider = {
  provide: AGENTS_DATABASE,
  inject: [AGENTS_CONFIG],
  useFactory: (config: AgentsConfig): Promise<S2spDatabase> =>
    openS2spDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
};

/** Closes the database last, after the task runtime has written its final states. */
@Injectable()
export class AgentsDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AGENTS_DATABASE) private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
