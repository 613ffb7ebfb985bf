import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerStorage } from '@nestjs/throttler';
import { s2spAuthModule } from '@s2sp/core';
import { DatabaseModule } from '@s2sp/database';
import { classOrValueProvider, SHARED_REDIS, SharedRedisModule, type SharedRedis } from '@s2sp/platform';
import { TelemetryModule } from '@s2sp/telemetry';
import { JsonRpcAuthGuard, JsonRpcModule, toJsonRpcError } from '@s2sp/json-rpc';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { Readiness } from '@s2sp/platform';
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
import { RedisThrottlerStorage, SlidingWindowThrottlerStorage } from '@s2sp/platform';
import { SCHEMA_REGISTRY_PROVIDERS } from './schemas/schema-registry.providers';
import { SchemasController } from './schemas/schemas.controller';

/**
 * The platform's JSON-RPC edge: POST /rpc (tools.*, agent.*, rpc.discover)
 * transcoded to the agents' gRPC services, GET /health, GET /schemas and the web console at /console.
 */
export const GATEWAY_SERVICE_NAME = 's2sp-gateway';

/**
 * @nestjs/throttler, of which only the storage is used (by CallerRateLimitGuard; its HTTP ThrottlerGuard
 * is not installed): in Redis when the replicas share one (config.redis), else in this process
 * (SlidingWindowThrottlerStorage: the same sliding window, at a cost per call that does not grow with the limit).
 */
function rateLimitStorageModule(config: GatewayConfig, storage: ThrottlerStorage | undefined): DynamicModule {
  const throttlers = [{ name: JSON_RPC_THROTTLER, limit: config.rateLimit.limit, ttl: config.rateLimit.windowMs }];
  if (storage) return ThrottlerModule.forRoot({ throttlers, storage });
  if (!config.redis) return ThrottlerModule.forRoot({ throttlers, storage: new SlidingWindowThrottlerStorage() });
  return ThrottlerModule.forRootAsync({
    imports: [SharedRedisModule.forRoot(config.redis)],
    inject: [SHARED_REDIS],
    useFactory: (redis: SharedRedis) => ({ throttlers, storage: new RedisThrottlerStorage(redis) }),
  });
}

/** The gateway's seams: what a deployment may put in place of the defaults. */
export interface GatewayModuleExtras {
  /** Replaces the PostgreSQL store behind IDEMPOTENCY_STORE: a class (instantiated by Nest) or an instance. */
  idempotencyStore?: Type<IdempotencyStore> | IdempotencyStore;
  /** Where per-caller rate limits are counted (an @nestjs/throttler storage); default: Redis when configured, else this process. */
  rateLimitStorage?: ThrottlerStorage;
}

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, extras: GatewayModuleExtras = {}): DynamicModule {
    validateGatewayConfig(config);
    return {
      module: GatewayModule,
      imports: [
        // Spans of POST /rpc (the root when the caller sent no traceparent, so every error names a trace),
        // jsonrpc.<method> under it, gRPC client spans; GET /metrics.
        TelemetryModule.forRoot({
          serviceName: GATEWAY_SERVICE_NAME,
          serviceVersion: GATEWAY_VERSION,
          apiVersion: GATEWAY_VERSION,
          // Spans and protocol_errors_total say the code the caller got.
          errorCode: (error) => toJsonRpcError(error).error.code,
          ...config.telemetry,
        }),
        DatabaseModule.forRoot({ provide: GATEWAY_DATABASE, databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
        s2spAuthModule(config.auth, GATEWAY_DATABASE, config.auditRetention),
        // OpenRPC's info.version is the version of the API the document describes, not of its implementation.
        JsonRpcModule.forRoot({ ...config.jsonRpc, info: { title: 'S2SP gateway', version: CONTRACT_VERSION } }),
        rateLimitStorageModule(config, extras.rateLimitStorage),
        ConsoleModule.forRoot(config.console ?? defaultConsoleOptions()),
      ],
      controllers: [HealthController, SchemasController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        // Turned to shutting_down by startGateway's shutdown(); GET /health answers 503 from then on.
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
