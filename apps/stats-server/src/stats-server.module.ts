import { ChartWarmUp } from './chart/chart-warm-up';
import { DynamicModule, Module } from '@nestjs/common';
import { s2spAuthModule, S2spModule } from '@s2sp/core';
import { TelemetryModule } from '@s2sp/telemetry';
import { ChartController } from './chart.controller';
import { MCP_COMPLETION_SOURCE } from '@s2sp/core';
import { ChartCompletions } from './mcp/chart-completions';
import { ChartPromptsController } from './mcp/chart-prompts.controller';
import { CHART_SUMMARY_OPTIONS } from './mcp/chart-summary';
import { DEFAULT_SUMMARY_MAX_TOKENS, type StatsServerConfig } from './stats-server.config';

@Module({})
export class StatsServerModule {
  static forRoot(config: StatsServerConfig): DynamicModule {
    return {
      module: StatsServerModule,
      imports: [
        // mcp.tools/call server spans, s2sp.data.fetch of consumer tools, GET /metrics.
        TelemetryModule.forRoot({
          serviceName: 's2sp-stats-server',
          serviceVersion: '0.1.0',
          mcpServerId: 'stats',
          ...config.telemetry,
        }),
        s2spAuthModule(config.auth, undefined, config.auditRetention),
        S2spModule.forRoot({
          ...(config.dataPlaneFetchAudit ? { dataPlaneFetchAudit: config.dataPlaneFetchAudit } : {}),
          limits: config.limits,
          allowedHosts: config.allowedHosts,
          allowedOrigins: config.allowedOrigins,
          allowedResourceOrigins: config.allowedResourceOrigins,
          resourceAudiences: config.resourceAudiences,
          fetchTimeoutMs: config.fetchTimeoutMs,
          arrowMinRows: config.arrowMinRows,
          // A consumer caches nothing, but its audit of authorization decisions must outlive a restart.
          database: { url: config.databaseUrl, dataDir: config.dataDir },
        }),
      ],
      controllers: [ChartController, ChartPromptsController],
      providers: [
        ...(config.warmUp === false ? [] : [ChartWarmUp]),
        { provide: MCP_COMPLETION_SOURCE, useClass: ChartCompletions },
        {
          provide: CHART_SUMMARY_OPTIONS,
          useValue: { maxTokens: config.summaryMaxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS },
        },
      ],
    };
  }
}
