import { AGENTS_VERSION } from './agents-version';
import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { Readiness } from '@s2sp/platform';
import { APP_GUARD } from '@nestjs/core';
import { GrpcAuthGuard } from '@s2sp/grpc';
import { s2spAuthModule } from '@s2sp/core';
import { DatabaseModule } from '@s2sp/database';
import {
  classOrValueProvider,
  RedisThrottlerStorage,
  SHARED_REDIS,
  SharedRedisModule,
  SlidingWindowThrottlerStorage,
  type SharedRedis,
} from '@s2sp/platform';
import { TelemetryModule } from '@s2sp/telemetry';
import { validateAgentsConfig, type AgentsConfig } from './agents.config';
import { AGENTS_CONFIG, AGENTS_DATABASE } from './agents.tokens';
import { UndecodableRequestGuard } from './grpc/undecodable-request.guard';
import { GrpcHealthService } from './health/grpc-health.service';
import { DiscoveryCredentials } from './mcp/discovery-credentials.service';
import { McpCallAuthorizer } from './mcp/mcp-call-authorizer.service';
import { McpConnectorService } from './mcp/mcp-connector.service';
import { AgentController } from './tasks/agent.controller';
import { AgentV2Controller } from './tasks/agent-v2.controller';
import { DeclarativePlanner } from './tasks/declarative-planner';
import { StepExecutor } from './tasks/step-executor.service';
import { TASK_PLANNER, type TaskPlanner } from './tasks/task-planner';
import { TaskRepository } from './tasks/task-repository';
import { InProcessTaskEvents } from './tasks/events/in-process-task-events';
import { InProcessTaskLeases } from './tasks/events/in-process-task-leases';
import { RedisTaskEvents } from './tasks/events/redis-task-events';
import { RedisTaskLeases } from './tasks/events/redis-task-leases';
import { TASK_EVENTS } from './tasks/events/task-events';
import { TASK_LEASES } from './tasks/events/task-leases';
import { TaskRuntime } from './tasks/task-runtime.service';
import { ToolController } from './tools/tool.controller';
import { ToolV2Controller } from './tools/tool-v2.controller';
import { ToolCallService } from './tools/tool-call.service';
import { ResourceReader } from './tools/resource-reader.service';
import { ToolInvoker } from './tools/tool-invoker.service';
import { ConfiguredSamplingPolicy } from './sampling/configured-sampling-policy';
import { MODEL_PROVIDER, type ModelProvider } from './sampling/model-provider';
import { RefusingModelProvider } from './sampling/refusing-model-provider';
import { SAMPLING_POLICY, type SamplingPolicy } from './sampling/sampling-policy';
import { SAMPLING_RATE_STORAGE } from './sampling/sampling-rate-storage';
import { SamplingService } from './sampling/sampling.service';

export interface AgentsModuleExtras {
  /** Replaces the DeclarativePlanner behind TASK_PLANNER: a class (instantiated by Nest) or an instance. */
  planner?: Type<TaskPlanner> | TaskPlanner;
  /** Answers the MCP servers' `sampling/createMessage` behind MODEL_PROVIDER (default: RefusingModelProvider). */
  modelProvider?: Type<ModelProvider> | ModelProvider;
  /** Replaces ConfiguredSamplingPolicy behind SAMPLING_POLICY. */
  samplingPolicy?: Type<SamplingPolicy> | SamplingPolicy;
}

/**
 * The agents: ToolService and AgentService over gRPC, the MCP connections
 * behind them, the task runtime and its database. `forRoot` validates the
 * configuration first and throws naming the bad field.
 */
export const AGENTS_SERVICE_NAME = 's2sp-agents';
export { AGENTS_VERSION };

@Module({})
export class AgentsModule {
  static forRoot(config: AgentsConfig, extras: AgentsModuleExtras = {}): DynamicModule {
    validateAgentsConfig(config);
    return {
      module: AgentsModule,
      imports: [
        // grpc.<Service>/<Method> server spans (parent from `traceparent` metadata), task steps, MCP client
        // spans; Prometheus on its own port (the agents serve no HTTP).
        TelemetryModule.forRoot({
          serviceName: AGENTS_SERVICE_NAME,
          serviceVersion: AGENTS_VERSION,
          ...(config.metricsPort !== undefined ? { metricsPort: config.metricsPort } : {}),
          ...(config.metricsHost !== undefined ? { metricsHost: config.metricsHost } : {}),
          metricsRoute: false,
          ...config.telemetry,
        }),
        DatabaseModule.forRoot({ provide: AGENTS_DATABASE, databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
        s2spAuthModule(config.auth, AGENTS_DATABASE, config.auditRetention),
        ...(config.redis ? [SharedRedisModule.forRoot(config.redis)] : []),
      ],
      controllers: [ToolController, ToolV2Controller, AgentController, AgentV2Controller],
      providers: [
        { provide: AGENTS_CONFIG, useValue: config },
        // Turned to shutting_down by startAgents' shutdown(); the gRPC health service answers NOT_SERVING from then on.
        { provide: Readiness, useValue: new Readiness() },
        { provide: APP_GUARD, useClass: GrpcAuthGuard },
        // After authentication: a caller who may not call learns nothing about the request.
        { provide: APP_GUARD, useClass: UndecodableRequestGuard },
        DiscoveryCredentials,
        classOrValueProvider(MODEL_PROVIDER, extras.modelProvider, RefusingModelProvider),
        samplingRateStorageProvider(config),
        classOrValueProvider(SAMPLING_POLICY, extras.samplingPolicy, ConfiguredSamplingPolicy),
        SamplingService,
        McpConnectorService,
        McpCallAuthorizer,
        ToolInvoker,
        ToolCallService,
        ResourceReader,
        TaskRepository,
        StepExecutor,
        ...taskCoordinationProviders(config),
        TaskRuntime,
        GrpcHealthService,
        classOrValueProvider(TASK_PLANNER, extras.planner, DeclarativePlanner),
      ],
      exports: [TASK_PLANNER, TaskRuntime, McpConnectorService, GrpcHealthService],
    };
  }
}

/** How replicas learn about each other's tasks: over Redis when they share one, else nothing crosses the process. */
function taskCoordinationProviders(config: AgentsConfig): Provider[] {
  if (!config.redis)
    return [
      { provide: TASK_EVENTS, useClass: InProcessTaskEvents },
      { provide: TASK_LEASES, useClass: InProcessTaskLeases },
    ];
  return [
    {
      provide: TASK_EVENTS,
      inject: [SHARED_REDIS],
      useFactory: (redis: SharedRedis) =>
        RedisTaskEvents.connect(redis, { cancelReplyTimeoutMs: config.remoteCancelTimeoutMs }),
    },
    {
      provide: TASK_LEASES,
      inject: [SHARED_REDIS],
      useFactory: (redis: SharedRedis) => new RedisTaskLeases(redis, config.taskLeaseMs),
    },
  ];
}

/** Where sampling requests are counted: in Redis when the replicas share one, else in the process. */
function samplingRateStorageProvider(config: AgentsConfig): Provider {
  if (!config.redis) return { provide: SAMPLING_RATE_STORAGE, useValue: new SlidingWindowThrottlerStorage() };
  return {
    provide: SAMPLING_RATE_STORAGE,
    inject: [SHARED_REDIS],
    useFactory: (redis: SharedRedis) => new RedisThrottlerStorage(redis),
  };
}

/** A replaceable provider: the given class (instantiated by Nest) or instance, else the default class. */
