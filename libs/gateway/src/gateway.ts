import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { HttpRequestDrain, Readiness, resolveShutdownOptions, shutdownControls } from '@s2sp/platform';
import { appLogger } from '@s2sp/telemetry';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_SERVICE_NAME, GatewayModule, type GatewayModuleExtras } from './gateway.module';
import { mountGatewayHostValidation } from './http/gateway-host-validation';

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

/** Starts the gateway in this process. Port 0 picks a free port (see the returned port/url). */
export async function startGateway(config: GatewayConfig, extras: GatewayModuleExtras = {}): Promise<RunningGateway> {
  const shutdownOptions = resolveShutdownOptions(config.shutdown);
  // Fastify rather than Express: its routing and request objects cost less per call (bench/gateway).
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayModule.forRoot(config, extras),
    new FastifyAdapter(),
    {
      logger: appLogger(GATEWAY_SERVICE_NAME, config.logger),
    },
  );
  // Before any route: a foreign Host or Origin is refused before a handler (or its guards) runs.
  mountGatewayHostValidation(app, config);
  try {
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
