import { type AsyncModuleOptions } from '@s2sp/platform';
import { asyncOptionsProviders } from '@s2sp/platform/internal';
import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { TELEMETRY_OPTIONS, type TelemetryOptions } from './config/telemetry-options';
import { GrpcTelemetryInterceptor } from './interceptors/grpc-telemetry.interceptor';
import {
  DEFAULT_IGNORED_ROUTES,
  HttpExchangeTelemetry,
  TELEMETRY_IGNORED_ROUTES,
} from './http/http-exchange-telemetry';
import { HttpTelemetryInterceptor } from './interceptors/http-telemetry.interceptor';
import { JsonRpcTelemetryInterceptor } from './interceptors/json-rpc-telemetry.interceptor';
import { McpToolTelemetryInterceptor } from './interceptors/mcp-tool-telemetry.interceptor';
import { TelemetryInterceptor } from './interceptors/telemetry.interceptor';
import { MetricsController } from './metrics/metrics.controller';
import { TelemetryMetrics } from './metrics/telemetry-metrics';
import { startTelemetry, Telemetry } from './telemetry';

/**
 * How the module plugs into the app (fixed when the module is declared, unlike TelemetryOptions).
 * @public
 */
export interface TelemetryModuleWiring {
  /** Register TelemetryInterceptor globally (APP_INTERCEPTOR). Default true. */
  interceptors?: boolean;
  /** Serve `GET /metrics` from this app's HTTP server. Default true; ignored by apps without HTTP. */
  metricsRoute?: boolean;
  /** HTTP routes as declared (e.g. `/rpc`) that get no span nor metrics. Default `/metrics`, `/health`. */
  ignoredRoutes?: readonly string[];
}

/**
 * Options made at run time (`useFactory`, `useClass` or `useExisting`), and how the module is wired into the app.
 * @public
 */
export type TelemetryModuleAsyncOptions = TelemetryModuleWiring & AsyncModuleOptions<TelemetryOptions>;

/** Shuts the app's telemetry down with the app (flushes spans, stops the /metrics server). */
@Injectable()
class TelemetryLifecycle implements OnApplicationShutdown {
  constructor(@Inject(Telemetry) private readonly telemetry: Telemetry) {}

  onApplicationShutdown(): Promise<void> {
    return this.telemetry.shutdown();
  }
}

/**
 * One app's telemetry as a global Nest module: `Telemetry` and
 * `TelemetryMetrics` injectable everywhere, one global interceptor for
 * HTTP routes, JSON-RPC methods, gRPC methods and MCP tools, and
 * `GET /metrics`. Each app imports it once with its own service name.
 *
 * ```ts
 * TelemetryModule.forRoot({ serviceName: 's2sp-gateway', serviceVersion: '0.1.0' })
 * TelemetryModule.forRootAsync({ inject: [CONFIG], useFactory: (c: Config) => c.telemetry, metricsRoute: false })
 * ```
 * @public
 */
@Global()
@Module({})
export class TelemetryModule {
  static forRoot(options: TelemetryOptions & TelemetryModuleWiring): DynamicModule {
    return TelemetryModule.build([{ provide: TELEMETRY_OPTIONS, useValue: options }], options, []);
  }

  static forRootAsync(options: TelemetryModuleAsyncOptions): DynamicModule {
    const providers = asyncOptionsProviders(
      'TelemetryModule',
      TELEMETRY_OPTIONS,
      options,
      (given: TelemetryOptions) => given,
    );
    return TelemetryModule.build(providers, options, options.imports ?? []);
  }

  private static build(
    optionProviders: Provider[],
    wiring: TelemetryModuleWiring,
    imports: NonNullable<ModuleMetadata['imports']>,
  ): DynamicModule {
    const providers: Provider[] = [
      ...optionProviders,
      {
        provide: Telemetry,
        inject: [TELEMETRY_OPTIONS],
        useFactory: (options: TelemetryOptions) => startTelemetry(options),
      },
      { provide: TelemetryMetrics, inject: [Telemetry], useFactory: (telemetry: Telemetry) => telemetry.metrics },
      { provide: TELEMETRY_IGNORED_ROUTES, useValue: wiring.ignoredRoutes ?? DEFAULT_IGNORED_ROUTES },
      TelemetryLifecycle,
      HttpExchangeTelemetry,
      HttpTelemetryInterceptor,
      JsonRpcTelemetryInterceptor,
      GrpcTelemetryInterceptor,
      McpToolTelemetryInterceptor,
      TelemetryInterceptor,
    ];
    if (wiring.interceptors !== false) providers.push({ provide: APP_INTERCEPTOR, useExisting: TelemetryInterceptor });
    return {
      module: TelemetryModule,
      imports,
      providers,
      controllers: wiring.metricsRoute === false ? [] : [MetricsController],
      exports: [
        Telemetry,
        TelemetryMetrics,
        TELEMETRY_OPTIONS,
        HttpExchangeTelemetry,
        HttpTelemetryInterceptor,
        JsonRpcTelemetryInterceptor,
        GrpcTelemetryInterceptor,
        McpToolTelemetryInterceptor,
        TelemetryInterceptor,
      ],
    };
  }
}
