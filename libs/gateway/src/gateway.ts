import type { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { HttpRequestDrain, Readiness, resolveShutdownOptions, shutdownControls } from '@s2sp/platform/internal';
import { appLogger } from '@s2sp/telemetry';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_CONFIG } from './gateway.constants';
import { GATEWAY_SERVICE_NAME, GatewayModule, type GatewayModuleExtras } from './gateway.module';
import { mountGatewayHostValidation } from './http/gateway-host-validation';

/** @public */
export interface RunningGateway {
  app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:3000 (JSON-RPC at `${url}/rpc`, health at `${url}/health`). */
  url: string;
  port: number;
  /** Closes at once: in-flight requests are cut off. */
  close(): Promise<void>;
  /**
   * What SIGTERM runs (see main.ts): /health answers 503, new connections are
   * refused after config.shutdown.notReadyDelayMs, in-flight requests finish
   * within config.shutdown.graceMs, then the app closes (the audit is flushed).
   */
  shutdown(): Promise<void>;
}

/** @public */
export interface ServeGatewayOptions {
  /** Nest logger: false for none, a list of levels (JSON lines), or your own LoggerService. Default: JSON lines, LOG_LEVELS. */
  logger?: LoggerService | LogLevel[] | false;
}

/**
 * Starts the gateway in this process. Port 0 picks a free port (see the returned port/url).
 * @public
 */
export function startGateway(config: GatewayConfig, extras: GatewayModuleExtras = {}): Promise<RunningGateway> {
  return serveGateway(GatewayModule.forRoot(config, extras), { logger: config.logger });
}

/**
 * Serves `module`, an app module that imports GatewayModule (forRoot or
 * forRootAsync), as startGateway does: on host and port of its GatewayConfig,
 * with the Host/Origin check, and the shutdown of config.shutdown.
 * @public
 */
export async function serveGateway(
  module: Parameters<typeof NestFactory.create>[0],
  options: ServeGatewayOptions = {},
): Promise<RunningGateway> {
  // Fastify rather than Express: its routing and request objects cost less per call (bench/gateway).
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), {
    logger: appLogger(GATEWAY_SERVICE_NAME, options.logger),
  });
  let config: GatewayConfig;
  let shutdownOptions: ReturnType<typeof resolveShutdownOptions>;
  try {
    config = app.get<GatewayConfig>(GATEWAY_CONFIG, { strict: false });
    shutdownOptions = resolveShutdownOptions(config.shutdown);
    // Before any route: a foreign Host or Origin is refused before a handler (or its guards) runs.
    mountGatewayHostValidation(app, config);
    await app.listen(config.port, config.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number } | string | null;
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = urlHost(config.host);
  const requests = new HttpRequestDrain(app.getHttpServer());
  const controls = shutdownControls(() => app.close(), {
    options: shutdownOptions,
    readiness: app.get(Readiness),
    drains: [{ name: 'in-flight HTTP requests', drain: (deadline) => requests.drain(deadline) }],
  });
  return { app, url: `http://${host}:${port}`, port, ...controls };
}

/** The host part of a URL that reaches the server: loopback for the wildcard addresses. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
