// A resource server of 5,000 generated alerts (the weather server's AlertCatalog.large), for the
// agent-loop token bench: get_alerts answers them for any area, as an S2SP resource tool.
import { Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { McpController } from '@rekog/mcp-nest';
import { InMemoryResourceStore, S2spModule, S2spResourceTool, serveMcp, type RunningMcpServer } from '@s2sp/core';
import { z } from 'zod';
import { AlertCatalog } from '../../apps/weather-server/src/alerts/alert-catalog';

const parameters = z.object({ area: z.string().describe('Two-letter US state code, e.g. "CA".') });

export async function startLargeAlertsServer(rows: number): Promise<RunningMcpServer> {
  const alerts = new AlertCatalog().large(rows);

  @McpController()
  class LargeAlertsController {
    @S2spResourceTool({
      name: 'get_alerts',
      description: `${rows} weather alerts, about 30 fields each (event, severity, urgency, headline, description, …).`,
      parameters,
    })
    getAlerts(@Payload() _args: z.infer<typeof parameters>): Array<Record<string, unknown>> {
      return structuredClone(alerts) as unknown as Array<Record<string, unknown>>;
    }
  }

  let base = '';
  @Module({
    imports: [
      S2spModule.forRoot({
        publicBaseUrl: () => base,
        resourceStore: { useClass: InMemoryResourceStore },
        limits: { maxRows: rows, maxResponseBytes: 256 * 1024 * 1024, maxRowIdsPerFetch: rows },
        warmUp: false,
      }),
    ],
    controllers: [LargeAlertsController],
  })
  class LargeAlertsModule {}
  const server = await serveMcp(LargeAlertsModule, {
    name: 'alerts-5000',
    version: '1.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    logger: ['error', 'warn'],
  });
  base = server.url;
  return server;
}
