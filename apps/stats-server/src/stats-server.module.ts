import { DynamicModule, Module } from '@nestjs/common';
import { S2spModule } from '@s2sp/core';
import { ChartController } from './chart.controller';
import type { StatsServerConfig } from './stats-server.config';

@Module({})
export class StatsServerModule {
  static forRoot(config: StatsServerConfig): DynamicModule {
    return {
      module: StatsServerModule,
      imports: [
        S2spModule.forRoot({
          allowedResourceOrigins: config.allowedResourceOrigins,
          fetchTimeoutMs: config.fetchTimeoutMs,
          // A consumer-only server caches nothing: keep its store in memory.
          database: { dataDir: ':memory:' },
        }),
      ],
      controllers: [ChartController],
    };
  }
}
