// An ES-module app on Express with S2spModule and the in-memory store: no database package installed.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { McpController } from '@rekog/mcp-nest';
import { Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  InMemoryResourceStore,
  S2spConsumerTool,
  S2spModule,
  S2spResourceTool,
  serveMcp,
  type S2spConsumerPayload,
} from '@s2sp/core';

const ALERTS = [
  { id: 'a1', event: 'Wind Advisory', severity: 'Moderate', area: 'CA', description: 'Gusts to 50 mph.' },
  { id: 'a2', event: 'Flood Watch', severity: 'Severe', area: 'CA', description: 'Heavy rain.' },
  { id: 'a3', event: 'Wind Advisory', severity: 'Minor', area: 'NV', description: 'Gusts to 40 mph.' },
];

@McpController()
export class AlertsController {
  @S2spResourceTool({
    name: 'get_alerts',
    description: 'Active weather alerts for a US state.',
    parameters: z.object({ area: z.string() }),
  })
  getAlerts(@Payload() args: { area: string }): Record<string, unknown>[] {
    return ALERTS.filter((alert) => alert.area === args.area);
  }
}

@McpController()
export class RowsController {
  @S2spConsumerTool({ name: 'count_rows', description: 'Hands back the merged rows.', parameters: z.object({}) })
  countRows(@Payload() payload: S2spConsumerPayload<Record<string, never>>): { rows: Record<string, unknown>[] } {
    return { rows: payload.rows };
  }
}

/** This server's own URL: it is both the resource server and the consumer. */
const port = Number(process.env.PORT);
const base = `http://127.0.0.1:${port}`;

@Module({
  imports: [
    S2spModule.forRoot({
      publicBaseUrl: base,
      allowedResourceOrigins: [base],
      resourceStore: { useValue: new InMemoryResourceStore() },
    }),
  ],
  controllers: [AlertsController, RowsController],
})
export class AppModule {}

const server = await serveMcp(AppModule, {
  name: 'esm-express',
  version: '1.0.0',
  host: '127.0.0.1',
  port,
  transport: 'http',
});
console.log(`LISTENING ${server.url}`);
process.once('SIGTERM', () => void server.shutdown().then(() => process.exit(0)));
