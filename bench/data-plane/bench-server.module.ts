import { DynamicModule, Module } from '@nestjs/common';
import { S2spModule, type ResourceWriteMode } from '@s2sp/core';
import { BenchControlController } from './bench-control.controller';
import { benchCacheBytes, benchLimits } from './bench-limits';
import { BenchTableHolder } from './bench-table-holder';

export interface BenchServerOptions {
  publicBaseUrl: () => string;
  /** A PostgreSQL URL, or `:memory:` for an in-process, in-memory PGlite. */
  databaseUrl: string;
  resourceWriteMode: ResourceWriteMode;
  maxRows: number;
  table: BenchTableHolder;
}

const IN_MEMORY = ':memory:';

/** A minimal resource server: the S2SP data plane plus the bench's control endpoints. */
@Module({})
export class BenchServerModule {
  static forRoot(options: BenchServerOptions): DynamicModule {
    return {
      module: BenchServerModule,
      imports: [
        S2spModule.forRoot({
          publicBaseUrl: options.publicBaseUrl,
          database: options.databaseUrl === IN_MEMORY ? { dataDir: IN_MEMORY } : { url: options.databaseUrl },
          resourceWriteMode: options.resourceWriteMode,
          limits: benchLimits(options.maxRows),
          // Sized for the largest table, as a deployment serving tables this big would be: the
          // default budget (64 MiB of encoded rows) would send 1M-row fetches to the database.
          resourceCacheBytes: benchCacheBytes(options.maxRows),
          sweepIntervalMs: 0,
        }),
      ],
      controllers: [BenchControlController],
      providers: [{ provide: BenchTableHolder, useValue: options.table }],
    };
  }
}
