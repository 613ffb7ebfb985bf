import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { appLogger, writeToStderr } from '@s2sp/telemetry';
import type { WeatherServerConfig } from './weather-server.config';
import { WeatherServerModule } from './weather-server.module';

/** Starts the weather resource server: MCP tool get_alerts plus its S2SP data plane. */
export async function startWeatherServer(config: WeatherServerConfig): Promise<RunningMcpServer> {
  let listeningUrl = '';
  // Fastify (about 5 MiB of modules) loads only when asked for; Express is serveMcp's default.
  const httpAdapter =
    config.platform === 'fastify' ? new (await import('@nestjs/platform-fastify')).FastifyAdapter() : undefined;
  const running = await serveMcp(
    WeatherServerModule.forRoot(config, () => config.publicBaseUrl ?? listeningUrl),
    {
      name: 'weather-server',
      version: '0.1.0',
      host: config.host,
      port: config.port,
      transport: config.transport,
      ...(config.mcpLimits ? { mcpLimits: config.mcpLimits } : {}),
      ...(config.shutdown ? { shutdown: config.shutdown } : {}),
      ...(httpAdapter ? { httpAdapter } : {}),
      // stdout carries the protocol on stdio.
      logger: appLogger(
        's2sp-weather-server',
        config.logger,
        config.transport === 'stdio' ? { write: writeToStderr } : {},
      ),
      auth: { audience: config.auth.audience, ...config.protectedResource },
      instructions: 'National Weather Service alerts as an S2SP resource server.',
      // Clients may subscribe to an area's alerts (weather://alerts/{area}); AlertFeed announces changes.
      resourceSubscriptions: true,
      // Before the first call: over stdio one may come as soon as the server reads stdin.
      onListening: (url) => (listeningUrl = url),
    },
  );
  return running;
}
