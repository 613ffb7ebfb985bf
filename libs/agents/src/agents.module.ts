import { AGENTS_VERSION } from './agents-version';
import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { GrpcAuthGuard } from '@s2sp/grpc';
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
  Readiness,
  sharedOptionsModule,
} from '@s2sp/platform/internal';
import { TelemetryModule, type TelemetryOptions } from '@s2sp/telemetry';
import { validateAgentsConfig, type AgentsConfig } from './agents.config';
import { AGENTS_CONFIG, AGENTS_DATABASE } from './agents.tokens';
import { UndecodableRequestGuard } from './grpc/undecodable-request.guard';
import { GrpcHealthService } from './health/grpc-health.service';
import { DiscoveryCredentials } from './mcp/discovery-credentials.service';
import { McpCallAuthorizer } from './mcp/mcp-call-authorizer.service';
import { McpConnectorService } from './mcp/mcp-connector.service';
import { AgentController } from './tasks/agent.controller';
import { AgentV2Controller } from './tasks/agent-v2.controller';
import { StepExecutor } from './tasks/step-executor.service';
import { TASK_PLANNER, type TaskPlanner } from './tasks/task-planner';
import { TaskRepository } from './tasks/task-repository';
import { InProcessTaskEvents } from './tasks/events/in-process-task-events';
import { InProcessTaskLeases } from './tasks/events/in-process-task-leases';
import { RedisTaskEvents } from './tasks/events/redis-task-events';
import { RedisTaskLeases } from './tasks/events/redis-task-leases';
import { TASK_EVENTS, type TaskEvents } from './tasks/events/task-events';
import { TASK_LEASES, type TaskLeases } from './tasks/events/task-leases';
import { TaskRuntime } from './tasks/task-runtime.service';
import { ToolController } from './tools/tool.controller';
import { ToolV2Controller } from './tools/tool-v2.controller';
import { ToolCallService } from './tools/tool-call.service';
import { ResourceReader } from './tools/resource-reader.service';
import { ToolInvoker } from './tools/tool-invoker.service';
import { ConfiguredSamplingPolicy } from './sampling/configured-sampling-policy';
import { MODEL_PROVIDER, type ModelProvider } from './sampling/model-provider';
import { modelProviderFromConfig } from './models/model-provider-from-config';
import { plannerFromConfig } from './planning/planner-from-config';
import { SAMPLING_POLICY, type SamplingPolicy } from './sampling/sampling-policy';
import { SAMPLING_RATE_STORAGE } from './sampling/sampling-rate-storage';
import { SamplingService } from './sampling/sampling.service';

const fromConfig = configSource<AgentsConfig>(AGENTS_CONFIG);

/**
 * The agents' seams: what a deployment may put in place of the defaults.
 * @public
 */
export interface AgentsModuleExtras extends AuthSeams {
  /** Replaces the DeclarativePlanner behind TASK_PLANNER: a class (instantiated by Nest) or an instance. */
  planner?: Type<TaskPlanner> | TaskPlanner;
  /** Answers the MCP servers' `sampling/createMessage` behind MODEL_PROVIDER (default: RefusingModelProvider). */
  modelProvider?: Type<ModelProvider> | ModelProvider;
  /** Replaces ConfiguredSamplingPolicy behind SAMPLING_POLICY. */
  samplingPolicy?: Type<SamplingPolicy> | SamplingPolicy;
  /**
   * How the replicas tell each other about the tasks they run, behind TASK_EVENTS;
   * default: over Redis when config.redis is set, else nothing leaves the process.
   */
  taskEvents?: Type<TaskEvents> | TaskEvents;
  /** Which tasks live replicas run, behind TASK_LEASES; default as for taskEvents, which it goes with. */
  taskLeases?: Type<TaskLeases> | TaskLeases;
}

/**
 * The configuration made at run time (`useFactory`, `useClass` or `useExisting`); the seams given beside it.
 * @public
 */
export type AgentsModuleAsyncOptions = AsyncModuleOptions<AgentsConfig> & AgentsModuleExtras;

/** Holds the AgentsConfig, for the agents' own modules to read. */
@Module({})
class AgentsConfigModule {}

/** The agents' service name in their spans, metrics and logs. */
export const AGENTS_SERVICE_NAME = 's2sp-agents';
export { AGENTS_VERSION };

/**
 * The agents: ToolService and AgentService over gRPC, the MCP connections
 * behind them, the task runtime and its database. `forRoot` validates the
 * configuration first and throws naming the bad field; `forRootAsync` takes
 * it from a source run when the app starts, and the start fails naming the field.
 * @public
 */
@Module({})
export class AgentsModule {
  static forRoot(config: AgentsConfig, extras: AgentsModuleExtras = {}): DynamicModule {
    validateAgentsConfig(config);
    // AuthModule's providers are registered when the module is declared; its sub-modules read the rest at run time.
    const { approvalProvider, auditSink, ...auth } = config.auth;
    const configured = sharedOptionsModule(AgentsConfigModule, AGENTS_CONFIG, [
      { provide: AGENTS_CONFIG, useValue: { ...config, auth } },
    ]);
    return AgentsModule.build(configured, extras, { approvalProvider, auditSink });
  }

  static forRootAsync(options: AgentsModuleAsyncOptions): DynamicModule {
    const configProviders = asyncOptionsProviders('AgentsModule', AGENTS_CONFIG, options, validateConfigMadeAtRunTime);
    return AgentsModule.build(
      sharedOptionsModule(AgentsConfigModule, AGENTS_CONFIG, configProviders, options.imports),
      options,
    );
  }

  private static build(
    configured: DynamicModule,
    extras: AgentsModuleExtras,
    configuredAuthProviders?: AuthProviderOptions,
  ): DynamicModule {
    return {
      module: AgentsModule,
      imports: [
        configured,
        // grpc.<Service>/<Method> server spans (parent from `traceparent` metadata), task steps, MCP client
        // spans; Prometheus on its own port (the agents serve no HTTP).
        TelemetryModule.forRootAsync({ ...fromConfig(configured, telemetryOptions), metricsRoute: false }),
        DatabaseModule.forRootAsync({
          provide: AGENTS_DATABASE,
          ...fromConfig(configured, ({ databaseUrl, dataDir }) => ({ databaseUrl, dataDir })),
        }),
        s2spAuthModuleAsync({
          database: AGENTS_DATABASE,
          ...authProviderOptions(extras, configuredAuthProviders),
          ...fromConfig(configured, ({ auth, auditRetention }) => ({ auth, auditRetention })),
        }),
        // SHARED_REDIS is undefined when config.redis is not set.
        SharedRedisModule.forRootAsync(fromConfig(configured, (config) => config.redis)),
      ],
      controllers: [ToolController, ToolV2Controller, AgentController, AgentV2Controller],
      providers: [
        // Turned to shutting_down by serveAgents' shutdown(); the gRPC health service answers NOT_SERVING from then on.
        { provide: Readiness, useValue: new Readiness() },
        { provide: APP_GUARD, useClass: GrpcAuthGuard },
        // After authentication: a caller who may not call learns nothing about the request.
        { provide: APP_GUARD, useClass: UndecodableRequestGuard },
        DiscoveryCredentials,
        classOrValueProvider(MODEL_PROVIDER, extras.modelProvider, {
          useFactory: (config: AgentsConfig) => modelProviderFromConfig(config.model),
          inject: [AGENTS_CONFIG],
        }),
        samplingRateStorageProvider(),
        classOrValueProvider(SAMPLING_POLICY, extras.samplingPolicy, ConfiguredSamplingPolicy),
        SamplingService,
        McpConnectorService,
        McpCallAuthorizer,
        ToolInvoker,
        ToolCallService,
        ResourceReader,
        TaskRepository,
        StepExecutor,
        ...taskCoordinationProviders(extras),
        TaskRuntime,
        GrpcHealthService,
        classOrValueProvider(TASK_PLANNER, extras.planner, {
          useFactory: (config: AgentsConfig, model: ModelProvider, connector: McpConnectorService) =>
            plannerFromConfig(config, model, connector),
          inject: [AGENTS_CONFIG, MODEL_PROVIDER, McpConnectorService],
        }),
      ],
      exports: [TASK_PLANNER, TaskRuntime, McpConnectorService, GrpcHealthService],
    };
  }
}

/**
 * The configuration a forRootAsync source made, checked before any module reads it:
 * a bad one fails the start before anything (a database, a connection) was opened.
 */
function validateConfigMadeAtRunTime(config: AgentsConfig): AgentsConfig {
  validateAgentsConfig(config);
  refuseAuthProviders(config.auth);
  return config;
}

function telemetryOptions(config: AgentsConfig): TelemetryOptions {
  return {
    serviceName: AGENTS_SERVICE_NAME,
    serviceVersion: AGENTS_VERSION,
    ...(config.metricsPort !== undefined ? { metricsPort: config.metricsPort } : {}),
    ...(config.metricsHost !== undefined ? { metricsHost: config.metricsHost } : {}),
    ...config.telemetry,
  };
}

/**
 * How replicas learn about each other's tasks: the given seams, else over Redis
 * when they share one, else nothing crosses the process.
 */
function taskCoordinationProviders(extras: AgentsModuleExtras): Provider[] {
  return [
    classOrValueProvider(TASK_EVENTS, extras.taskEvents, {
      inject: [AGENTS_CONFIG, SHARED_REDIS],
      useFactory: (config: AgentsConfig, redis: SharedRedis | undefined) =>
        redis
          ? RedisTaskEvents.connect(redis, { cancelReplyTimeoutMs: config.remoteCancelTimeoutMs })
          : new InProcessTaskEvents(),
    }),
    classOrValueProvider(TASK_LEASES, extras.taskLeases, {
      inject: [AGENTS_CONFIG, SHARED_REDIS],
      useFactory: (config: AgentsConfig, redis: SharedRedis | undefined) =>
        redis ? new RedisTaskLeases(redis, config.taskLeaseMs) : new InProcessTaskLeases(),
    }),
  ];
}

/** Where sampling requests are counted: in Redis when the replicas share one, else in the process. */
function samplingRateStorageProvider(): Provider {
  return {
    provide: SAMPLING_RATE_STORAGE,
    inject: [SHARED_REDIS],
    useFactory: (redis: SharedRedis | undefined) =>
      redis ? new RedisThrottlerStorage(redis) : new SlidingWindowThrottlerStorage(),
  };
}
