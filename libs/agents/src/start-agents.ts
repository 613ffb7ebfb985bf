import type { INestMicroservice, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { grpcPackageDefinition, v1, v2, type GrpcPackageDefinition } from '@s2sp/contracts';
import { Readiness, resolveShutdownOptions, shutdownControls } from '@s2sp/platform/internal';
import { appLogger, Telemetry } from '@s2sp/telemetry';
import type { AgentsConfig } from './agents.config';
import { AGENTS_CONFIG } from './agents.tokens';
import { AGENTS_SERVICE_NAME, AgentsModule, type AgentsModuleExtras } from './agents.module';
import { BoundPortGrpcServer } from './grpc/bound-port-grpc-server';
import { deserializeRequestsLeniently } from './grpc/lenient-request-deserializer';
import { GrpcHealthService } from './health/grpc-health.service';
import { TaskRuntime } from './tasks/task-runtime.service';
import { addContractReflection } from './reflection/contract-reflection';

/** @public */
export interface ServeAgentsOptions {
  /** Nest logger: false for none, a list of levels (JSON lines), or your own LoggerService. Default: JSON lines of every level. */
  logger?: LoggerService | LogLevel[] | false;
}

/** @public */
export interface StartAgentsOptions extends AgentsModuleExtras, ServeAgentsOptions {}

/** @public */
export interface RunningAgents {
  app: INestMicroservice;
  /** host:port the gRPC server listens on (what a grpc-js client dials). */
  url: string;
  port: number;
  /** `http://host:port/metrics` of the Prometheus endpoint, when config.metricsPort was set. */
  metricsUrl?: string;
  /** Closes at once: running tasks are interrupted (stored FAILED, to be submitted again). */
  close(): Promise<void>;
  /**
   * What SIGTERM runs (see main.ts): gRPC health answers NOT_SERVING, new calls
   * are refused after config.shutdown.notReadyDelayMs, calls in flight and
   * running tasks get until config.shutdown.graceMs to finish, then the app
   * closes (tasks still running are stored FAILED, the audit is flushed).
   */
  shutdown(): Promise<void>;
}

/** Largest gRPC message the agents accept or send (task results may carry tool output such as images). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Starts the agents in this process: a Nest gRPC microservice serving
 * s2sp.v1.ToolService, s2sp.v1.AgentService, s2sp.v2.ToolService, s2sp.v2.AgentService, grpc.health.v1.Health and
 * grpc.reflection.v1 on host:port (port 0 = any free port; the bound one is
 * returned). MCP servers that are down do not stop the start.
 * @public
 */
export function startAgents(config: AgentsConfig, options: StartAgentsOptions = {}): Promise<RunningAgents> {
  const { logger, ...extras } = options;
  return serveAgents(AgentsModule.forRoot(config, extras), { logger });
}

/**
 * Serves `module`, an app module that imports AgentsModule (forRoot or
 * forRootAsync), as startAgents does: the same services on host and port of its
 * AgentsConfig, with the shutdown of config.shutdown.
 * @public
 */
export async function serveAgents(
  module: Parameters<typeof NestFactory.createMicroservice>[0],
  options: ServeAgentsOptions = {},
): Promise<RunningAgents> {
  // eslint-disable-next-line prefer-const -- assigned below, read by the gRPC callback declared before it
  let app: INestMicroservice | undefined;
  const server = new BoundPortGrpcServer({
    package: ['s2sp.v1', 's2sp.v2'],
    packageDefinition: grpcPackageDefinition(
      v1.ToolServiceService,
      v1.AgentServiceService,
      v2.ToolServiceService,
      v2.AgentServiceService,
    ),
    maxReceiveMessageLength: MAX_MESSAGE_BYTES,
    maxSendMessageLength: MAX_MESSAGE_BYTES,
    onLoadPackageDefinition: (
      definition: GrpcPackageDefinition,
      grpcServer: Parameters<GrpcHealthService['attach']>[0],
    ) => {
      deserializeRequestsLeniently(definition);
      app?.get(GrpcHealthService).attach(grpcServer);
      addContractReflection(grpcServer);
    },
  });
  app = await NestFactory.createMicroservice(module, {
    strategy: server,
    logger: appLogger(AGENTS_SERVICE_NAME, options.logger),
  });
  const running = app;
  let config: AgentsConfig;
  let shutdownOptions: ReturnType<typeof resolveShutdownOptions>;
  try {
    config = running.get<AgentsConfig>(AGENTS_CONFIG, { strict: false });
    shutdownOptions = resolveShutdownOptions(config.shutdown);
    server.listenAt(
      `${urlHost(config.host)}:${config.port}`,
      config.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': config.maxConnectionAgeMs } : {},
    );
    await running.listen();
  } catch (error) {
    await running.close().catch(() => undefined);
    throw error;
  }
  running.get(GrpcHealthService).markServing();
  const port = server.boundPort;
  const metricsUrl = running.get(Telemetry).metricsUrl;
  const controls = shutdownControls(() => running.close(), {
    options: shutdownOptions,
    readiness: running.get(Readiness),
    drains: [
      { name: 'in-flight gRPC calls', drain: (deadline) => server.drain(deadline) },
      { name: 'running tasks', drain: (deadline) => running.get(TaskRuntime).drain(deadline) },
    ],
  });
  return {
    app: running,
    url: `${urlHost(config.host)}:${port}`,
    port,
    ...(metricsUrl ? { metricsUrl } : {}),
    ...controls,
  };
}

/** An IPv6 address in brackets, as a gRPC target and a listen address need it. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
