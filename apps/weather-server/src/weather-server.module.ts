import { DynamicModule, Module } from '@nestjs/common';
import { ResourceActivityController, s2spAuthModule, S2spModule } from '@s2sp/core';
import { TelemetryModule } from '@s2sp/telemetry';
import { AlertCatalog } from './alerts/alert-catalog';
import { AlertsController } from './alerts.controller';
import { MCP_COMPLETION_SOURCE, MCP_RESOURCE_DIRECTORY } from '@s2sp/core';
import { AlertCompletions } from './mcp/alert-completions';
import { ALERT_UPDATE_INTERVAL_MS, AlertFeed } from './mcp/alert-feed';
import { AlertResourceDirectory } from './mcp/alert-resource-directory';
import { AlertResourcesController } from './mcp/alert-resources.controller';
import { defaultDataPlaneAuth, type WeatherServerConfig } from './weather-server.config';

@Module({})
export class WeatherServerModule {
  /** `publicBaseUrl` is read lazily so a server on port 0 can fill it in once it listens. */
  static forRoot(config: WeatherServerConfig, publicBaseUrl: () => string): DynamicModule {
    return {
      module: WeatherServerModule,
      imports: [
        // mcp.tools/call server spans, s2sp.data.serve on the data plane, GET /metrics.
        TelemetryModule.forRoot({
          serviceName: 's2sp-weather-server',
          serviceVersion: '0.1.0',
          mcpServerId: 'weather',
          ...config.telemetry,
        }),
        s2spAuthModule(config.auth, undefined, config.auditRetention),
        S2spModule.forRoot({
          ...(config.dataPlaneFetchAudit ? { dataPlaneFetchAudit: config.dataPlaneFetchAudit } : {}),
          limits: config.limits,
          allowedHosts: config.allowedHosts,
          allowedOrigins: config.allowedOrigins,
          dataPlaneAuth: config.dataPlaneAuth ?? defaultDataPlaneAuth(config.transport),
          publicBaseUrl,
          resourceTtlMs: config.resourceTtlMs,
          sweepIntervalMs: config.sweepIntervalMs,
          database: { url: config.databaseUrl, dataDir: config.dataDir },
          warmUp: config.warmUp,
        }),
      ],
      controllers: [AlertsController, AlertResourcesController, ResourceActivityController],
      providers: [
        AlertCatalog,
        AlertFeed,
        { provide: ALERT_UPDATE_INTERVAL_MS, useValue: config.alertUpdateIntervalMs ?? 0 },
        { provide: MCP_RESOURCE_DIRECTORY, useClass: AlertResourceDirectory },
        { provide: MCP_COMPLETION_SOURCE, useClass: AlertCompletions },
      ],
    };
  }
}
