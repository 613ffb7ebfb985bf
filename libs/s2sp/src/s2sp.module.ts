import { McpSessionBroadcaster } from './mcp-surfaces/mcp-session-broadcaster';
import { asyncOptionsProviders, loadOptionalPackage } from '@s2sp/platform/internal';
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { DATA_PLANE_FETCH_AUDIT, LoggerDataPlaneFetchAudit } from './audit/data-plane-fetch-audit';
import { PrismaDataPlaneFetchAudit } from './audit/prisma-data-plane-fetch-audit';
import { S2spToolAuthGuard } from './auth/s2sp-tool-auth.guard';
import { ConsumerToolInterceptor } from './consumer/consumer-tool.interceptor';
import { DataPlaneCredentials } from './consumer/data-plane-credentials.service';
import { DataPlaneClient } from './consumer/data-plane-client.service';
import { S2SP_DATABASE, S2SP_OPTIONS, S2SP_RAW_OPTIONS } from './config/s2sp.constants';
import {
  resolveS2spOptions,
  type ResolvedS2spOptions,
  type ResourceStoreProvider,
  type S2spModuleAsyncOptions,
  type S2spModuleOptions,
} from './config/s2sp-options';
import { DataPlaneController } from './data-plane/data-plane.controller';
import { DataPlaneService } from './data-plane/data-plane.service';
import { ExpiredResourceSweeper } from './data-plane/expired-resource-sweeper';
import { UnreadDataPlaneBody } from './data-plane/unread-data-plane-body';
import { S2spDatabaseLifecycle } from './s2sp-database-lifecycle';
import type { SqlDatabase } from '@s2sp/platform/internal';
import { ResourcePublisher } from './resource/resource-publisher.service';
import { ResourceToolInterceptor } from './resource/resource-tool.interceptor';
import { TokenCounterWarmUp } from './resource/token-counter-warm-up';
import { PrismaResourceStore } from './store/prisma-resource-store';
import { RESOURCE_STORE } from './store/resource-store.interface';

/**
 * `@s2sp/database` (Prisma, PostgreSQL, the embedded server) is loaded only
 * when the default store is used: an app with a resourceStore of its own
 * needs neither to install nor to load it.
 */
function loadDatabasePackage(): typeof import('@s2sp/database/internal') {
  return loadOptionalPackage(
    '@s2sp/database',
    "S2spModule's default resource store (pass `resourceStore` to use another, e.g. InMemoryResourceStore for development)",
    () => require('@s2sp/database/internal') as typeof import('@s2sp/database/internal'),
  );
}

const S2SP_SERVICES = [
  ResourcePublisher,
  ResourceToolInterceptor,
  DataPlaneClient,
  DataPlaneCredentials,
  ConsumerToolInterceptor,
  S2spToolAuthGuard,
  DataPlaneService,
  ExpiredResourceSweeper,
  McpSessionBroadcaster,
];

/**
 * S2SP for a Nest app: the resource/consumer tool interceptors, the data plane
 * (`POST /s2sp/data/:token`, `GET /s2sp/health`) and its store. Global, so
 * @McpController classes anywhere in the app can use the S2SP decorators.
 * @public
 */
@Module({})
export class S2spModule {
  static forRoot(options: S2spModuleOptions = {}): DynamicModule {
    return S2spModule.build([{ provide: S2SP_RAW_OPTIONS, useValue: options }], options.resourceStore, []);
  }

  static forRootAsync(options: S2spModuleAsyncOptions): DynamicModule {
    const raw = asyncOptionsProviders('S2spModule', S2SP_RAW_OPTIONS, options, (given: S2spModuleOptions) => given);
    return S2spModule.build(raw, options.resourceStore, options.imports ?? [], options.extraProviders);
  }

  private static build(
    rawOptions: Provider[],
    customStore: ResourceStoreProvider | undefined,
    imports: NonNullable<DynamicModule['imports']>,
    extraProviders: Provider[] = [],
  ): DynamicModule {
    const storeProviders: Provider[] = customStore
      ? [
          { provide: RESOURCE_STORE, ...customStore } as Provider,
          { provide: DATA_PLANE_FETCH_AUDIT, useClass: LoggerDataPlaneFetchAudit },
        ]
      : [
          {
            provide: S2SP_DATABASE,
            useFactory: (options: ResolvedS2spOptions) =>
              loadDatabasePackage().openS2spDatabase({
                databaseUrl: options.database.url,
                dataDir: options.database.dataDir,
                preparedStatements: options.database.preparedStatements,
              }),
            inject: [S2SP_OPTIONS],
          },
          S2spDatabaseLifecycle,
          {
            provide: RESOURCE_STORE,
            useFactory: (database: SqlDatabase, options: ResolvedS2spOptions) =>
              new PrismaResourceStore(database, {
                cacheMaxBytes: options.resourceCacheBytes,
                writeMode: options.resourceWriteMode,
                tableWaitMs: options.resourceTableWaitMs,
                writeDelayMs: options.resourceWriteDelayMs,
                reservations: options.resourceReservations,
                claimCommit: options.resourceClaimCommit,
                // openS2spDatabase makes a PGlite only in memory (`dataDir: ':memory:'`), which belongs
                // to this process alone: tables stay out of it.
                tablesInProcessOnly: database.kind === 'pglite',
              }),
            inject: [S2SP_DATABASE, S2SP_OPTIONS],
          },
          {
            provide: DATA_PLANE_FETCH_AUDIT,
            useFactory: (database: SqlDatabase, options: ResolvedS2spOptions, metrics?: TelemetryMetrics) =>
              new PrismaDataPlaneFetchAudit(database, metrics, options.dataPlaneFetchAudit),
            inject: [S2SP_DATABASE, S2SP_OPTIONS, { token: TelemetryMetrics, optional: true }],
          },
        ];
    return {
      module: S2spModule,
      global: true,
      imports: [DiscoveryModule, ...imports],
      controllers: [DataPlaneController],
      providers: [
        ...rawOptions,
        { provide: S2SP_OPTIONS, useFactory: resolveS2spOptions, inject: [S2SP_RAW_OPTIONS] },
        ...storeProviders,
        ...extraProviders,
        ...S2SP_SERVICES,
        UnreadDataPlaneBody,
        TokenCounterWarmUp,
      ],
      exports: [
        S2SP_OPTIONS,
        RESOURCE_STORE,
        DATA_PLANE_FETCH_AUDIT,
        ...(customStore ? [] : [S2SP_DATABASE]),
        ...S2SP_SERVICES,
      ],
    };
  }
}
