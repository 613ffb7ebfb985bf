import { Inject, Injectable, Module, OnApplicationShutdown, type DynamicModule, type Provider } from '@nestjs/common';
import { openS2spDatabase, type S2spDatabase } from '@s2sp/core';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_DATABASE } from '../agents.tokens';

/** Opens the agents' database (PGlite in dataDir, or PostgreSQL by databaseUrl) and applies migrations. */
function agentsDatabaseProvider(config: AgentsConfig): Provider {
  return {
    provide: AGENTS_DATABASE,
    useFactory: (): Promise<S2spDatabase> => openS2spDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
  };
}

/** The agents' database, global so the audit sink of AuthModule can write to it too. */
@Module({})
export class AgentsDatabaseModule {
  static forRoot(config: AgentsConfig): DynamicModule {
    return {
      module: AgentsDatabaseModule,
      global: true,
      providers: [agentsDatabaseProvider(config), AgentsDatabaseLifecycle],
      exports: [AGENTS_DATABASE],
    };
  }
}

/** Closes the database last, after the task runtime has written its final states. */
@Injectable()
export class AgentsDatabaseLifecycle implements OnApplicationShutdown {
  constructor(@Inject(AGENTS_DATABASE) private readonly database: S2spDatabase) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
