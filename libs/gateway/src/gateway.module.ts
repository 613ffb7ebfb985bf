import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import { s2spAuthModuleAsync, type AuthProviderOptions } from '@s2sp/core';
import { authProviderOptions, refuseAuthProviders, type AuthSeams } from '@s2sp/core/internal';
import { DatabaseModule } from '@s2sp/database';
import {
  RedisThrottlerStorage,
  SHARED_REDIS,
  SharedRedisModule,
  SlidingWindowThrottlerStorage,
  type AsyncModuleOptions,
  type SharedRedis,
} from '@s2sp/platform';
import {
  asyncOptionsProviders,
  configSource,
  classOrValueProvider,
  sharedOptionsModule,
} from '@s2sp/platform/internal';
import { TelemetryModule, type TelemetryOptions } from '@s2sp/telemetry';
import { JsonRpcAuthGuard, JsonRpcModule, toJsonRpcError, type JsonRpcModuleOptions } from '@s2sp/json-rpc';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { Readiness } from '@s2sp/platform/internal';
import { GATEWAY_VERSION, validateGatewayConfig, type GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG, GATEWAY_DATABASE } from './gateway.constants';
import { ConsoleModule } from './console/console.module';
import { defaultConsoleOptions } from './console/console-options';
import { DownstreamCredentials } from './auth/downstream-credentials.service';
import { ToolScopeCatalog } from './auth/tool-scope-catalog';
import { AgentServiceClient } from './grpc/agent-service.client';
import { AgentsCircuitBreaker } from './grpc/agents-circuit-breaker';
import { AgentsDownstream } from './grpc/agents-downstream';
import { AgentsGrpcClients } from './grpc/agents-grpc-clients';
import { ToolServiceClient } from './grpc/tool-service.client';
import { AgentSurfacesCache } from './grpc/agent-surfaces-cache';
import { GatewayHealth } from './health/gateway-health.service';
import { HealthController } from './health/health.controller';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencySweeper } from './idempotency/idempotency-sweeper';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency/idempotency-store';
import { IdempotentExecution } from './idempotency/idempotent-execution.service';
import { PrismaIdempotencyStore } from './idempotency/prisma-idempotency-store';
import { AgentMethods } from './methods/agent.methods';
import { ToolsMethods } from './methods/tools.methods';
import { ResourcesMethods } from './methods/resources.methods';
import { CallerRateLimitGuard, JSON_RPC_THROTTLER } from './rate-limit/caller-rate-limit.guard';
import { SCHEMA_REGISTRY_PROVIDERS } from './schemas/schema-registry.providers';
import { SchemasController } from './schemas/schemas.controller';

const fromConfig = configSource<GatewayConfig>(GATEWAY_CONFIG);

/**
 * The platform's JSON-RPC edge: POST /rpc (tools.*, agent.*, rpc.discover)
 * transcoded to the agents' gRPC services, GET /health, GET /schemas and the web console at /console.
 */
export const GATEWAY_SERVICE_NAME = 's2sp-gateway';

/**
 * The gateway's seams: what a deployment may put in place of the defaults.
 * @public
 */
export interface GatewayModuleExtras extends AuthSeams {
  /** Replaces the PostgreSQL store behind IDEMPOTENCY_STORE: a class (instantiated by Nest) or an instance. */
  idempotencyStore?: Type<IdempotencyStore> | IdempotencyStore;
  /** Where per-caller rate limits are counted (an @nestjs/throttler storage); default: Redis when configured, else this process. */
  rateLimitStorage?: ThrottlerStorage;
}

/**
 * The configuration made at run time (`useFactory`, `useClass` or `useExisting`); the seams given beside it.
 * @public
 */
export type GatewayModuleAsyncOptions = AsyncModuleOptions<GatewayConfig> & GatewayModuleExtras;

/** Holds the GatewayConfig, for the gateway's own modules to read. */
@Module({})
class GatewayConfigModule {}

/**
 * The gateway as a Nest module. `forRoot` takes the configuration as a value and
 * throws naming a bad field; `forRootAsync` takes it from a source run when the
 * app starts, and the start fails naming the field.
 * @public
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, extras: GatewayModuleExtras = {}): DynamicModule {
    validateGatewayConfig(config);
    // AuthModule's providers are registered when the module is declared; its sub-modules read the rest at run time.
    const { approvalProvider, auditSink, ...auth } = config.auth;
    const configured = sharedOptionsModule(GatewayConfigModule, GATEWAY_CONFIG, [
      { provide: GATEWAY_CONFIG, useValue: { ...config, auth } },
    ]);
    // Which console routes exist is known here; forRootAsync declares them all and turns them off at run time.
    const console = ConsoleModule.forRoot(config.console ?? defaultConsoleOptions());
    return GatewayModule.build(configured, console, extras, { approvalProvider, auditSink });
  }

  static forRootAsync(options: GatewayModuleAsyncOptions): DynamicModule {
    const configProviders = asyncOptionsProviders(
      'GatewayModule',
      GATEWAY_CONFIG,
      options,
      validateConfigMadeAtRunTime,
    );
    const configured = sharedOptionsModule(GatewayConfigModule, GATEWAY_CONFIG, configProviders, options.imports);
    const console = ConsoleModule.forRootAsync(
      fromConfig(configured, (config) => config.console ?? defaultConsoleOptions()),
    );
    return GatewayModule.build(configured, console, options);
  }

  private static build(
    configured: DynamicModule,
    console: DynamicModule,
    extras: GatewayModuleExtras,
    configuredAuthProviders?: AuthProviderOptions,
  ): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        configured,
        // Spans of POST /rpc (the root when the caller sent no traceparent, so every error names a trace),
        // jsonrpc.<method> under it, gRPC client spans; GET /metrics.
        TelemetryModule.forRootAsync(fromConfig(configured, telemetryOptions)),
        DatabaseModule.forRootAsync({
          provide: GATEWAY_DATABASE,
          ...fromConfig(configured, ({ databaseUrl, dataDir }) => ({ databaseUrl, dataDir })),
        }),
        s2spAuthModuleAsync({
          database: GATEWAY_DATABASE,
          ...authProviderOptions(extras, configuredAuthProviders),
          ...fromConfig(configured, ({ auth, auditRetention }) => ({ auth, auditRetention })),
        }),
        JsonRpcModule.forRootAsync(fromConfig(configured, jsonRpcOptions)),
        rateLimitStorageModule(configured, extras.rateLimitStorage),
        console,
      ],
      controllers: [HealthController, SchemasController],
      providers: [
        // Turned to shutting_down by serveGateway's shutdown(); GET /health answers 503 from then on.
        { provide: Readiness, useValue: new Readiness() },
        AgentsGrpcClients,
        AgentsCircuitBreaker,
        AgentsDownstream,
        ToolServiceClient,
        AgentSurfacesCache,
        AgentServiceClient,
        classOrValueProvider(IDEMPOTENCY_STORE, extras.idempotencyStore, PrismaIdempotencyStore),
        IdempotentExecution,
        IdempotencyInterceptor,
        IdempotencySweeper,
        // First, so the rate limiter keys on the verified subject.
        { provide: APP_GUARD, useClass: JsonRpcAuthGuard },
        { provide: APP_GUARD, useClass: CallerRateLimitGuard },
        ToolScopeCatalog,
        DownstreamCredentials,
        GatewayHealth,
        ToolsMethods,
        AgentMethods,
        ResourcesMethods,
        ...SCHEMA_REGISTRY_PROVIDERS,
      ],
    };
  }
}

/**
 * The configuration a forRootAsync source made, checked before any module reads it:
 * a bad one fails the start before anything (a database, a connection) was opened.
 */
function validateConfigMadeAtRunTime(config: GatewayConfig): GatewayConfig {
  validateGatewayConfig(config);
  refuseAuthProviders(config.auth, 'Gateway config auth');
  return config;
}

function telemetryOptions(config: GatewayConfig): TelemetryOptions {
  return {
    serviceName: GATEWAY_SERVICE_NAME,
    serviceVersion: GATEWAY_VERSION,
    apiVersion: GATEWAY_VERSION,
    // Spans and protocol_errors_total say the code the caller got.
    errorCode: (error) => toJsonRpcError(error).error.code,
    ...config.telemetry,
  };
}

function jsonRpcOptions(config: GatewayConfig): JsonRpcModuleOptions {
  // OpenRPC's info.version is the version of the API the document describes, not of its implementation.
  return { ...config.jsonRpc, info: { title: 'S2SP gateway', version: CONTRACT_VERSION } };
}

/**
 * @nestjs/throttler, of which only the storage is used (by CallerRateLimitGuard; its HTTP ThrottlerGuard
 * is not installed): the given storage, else in Redis when the replicas share one (config.redis), else
 * in this process (SlidingWindowThrottlerStorage: the same sliding window, at a cost per call that does
 * not grow with the limit). Redis is connected only when it counts.
 */
function rateLimitStorageModule(configured: DynamicModule, storage: ThrottlerStorage | undefined): DynamicModule {
  const redis = SharedRedisModule.forRootAsync(
    fromConfig(configured, (config) => (storage ? undefined : config.redis)),
  );
  return ThrottlerModule.forRootAsync({
    imports: [configured, redis],
    inject: [GATEWAY_CONFIG, SHARED_REDIS],
    useFactory: (config: GatewayConfig, shared: SharedRedis | undefined) => ({
      throttlers: [{ name: JSON_RPC_THROTTLER, limit: config.rateLimit.limit, ttl: config.rateLimit.windowMs }],
      storage: storage ?? (shared ? new RedisThrottlerStorage(shared) : new SlidingWindowThrottlerStorage()),
    }),
  });
}
