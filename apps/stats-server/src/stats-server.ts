import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { appLogger, writeToStderr } from '@s2sp/telemetry';
import type { StatsServerConfig } from './stats-server.config';
import { StatsServerModule } from './stats-server.module';

/** Starts the stats consumer server: MCP tool draw_chart. */
export function startStatsServer(config: StatsServerConfig): Promise<RunningMcpServer> {
  return serveMcp(StatsServerModule.forRoot(config), {
    name: 'stats-server',
    version: '0.1.0',
    host: config.host,
    port: config.port,
    transport: config.transport,
    ...(config.mcpLimits ? { mcpLimits: config.mcpLimits } : {}),
    ...(config.shutdown ? { shutdown: config.shutdown } : {}),
    // stdout carries the protocol on stdio.
    logger: appLogger('s2sp-stats-server', config.logger, config.transport === 'stdio' ? { write: writeToStderr } : {}),
    auth: { audience: config.auth.audience, ...config.protectedResource },
    instructions: 'Charts for rows handed over by S2SP: pass abstract rows and a resource_url (or body_data).',
  });
}
