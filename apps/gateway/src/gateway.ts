import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { appLogger } from '@s2sp/telemetry';
import type { GatewayConfig } from './gateway.config';
import { GATEWAY_SERVICE_NAME, GatewayModule } from './gateway.module';

export interface RunningGateway {
  app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:3000 (JSON-RPC at `${url}/rpc`, health at `${url}/health`). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts the gateway in this process. Port 0 picks a free port (see the returned port/url). */
export async function startGateway(config: GatewayConfig): Promise<RunningGateway> {
  // Fastify rather than Express: its routing and request objects cost less per call (bench/gateway).
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config), new FastifyAdapter(), {
    logger: appLogger(GATEWAY_SERVICE_NAME, config.logger),
  });
  app.enableShutdownHooks();
  try {
    await app.listen(config.port, config.host);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.getHttpServer().address() as { port: number } | string | null;
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = urlHost(config.host);
  let closing: Promise<void> | undefined;
  return { app, url: `http://${host}:${port}`, port, close: () => (closing ??= app.close()) };
}

/** The host part of a URL that reaches the server: loopback for the wildcard addresses. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
