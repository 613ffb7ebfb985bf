// The platform in a user's app: an MCP server with a resource and a consumer tool,
// the agents (@s2sp/agents) with a planner of the app's own behind TASK_PLANNER, and the
// gateway (@s2sp/gateway), configured from the environment by the packages' fromEnv helpers.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { McpController } from '@rekog/mcp-nest';
import { z } from 'zod';
import {
  agentsConfigFromEnv,
  startAgents,
  type PlannerContext,
  type PlannerDecision,
  type TaskDefinition,
  type TaskPlanner,
} from '@s2sp/agents';
import {
  InMemoryResourceStore,
  S2spConsumerTool,
  S2spModule,
  S2spResourceTool,
  serveMcp,
  type S2spConsumerPayload,
} from '@s2sp/core';
import { gatewayConfigFromEnv, startGateway } from '@s2sp/gateway';

const ALERTS = [
  { id: 'a1', event: 'Wind Advisory', severity: 'Moderate', area: 'CA', description: 'Gusts to 50 mph.' },
  { id: 'a2', event: 'Flood Watch', severity: 'Severe', area: 'CA', description: 'Heavy rain.' },
  { id: 'a3', event: 'High Wind Warning', severity: 'Severe', area: 'CA', description: 'Gusts to 70 mph.' },
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
export class CountController {
  @S2spConsumerTool({
    name: 'count_by',
    description: 'Counts the rows by one column.',
    parameters: z.object({ column: z.string() }),
    annotations: { readOnlyHint: true },
  })
  countBy(@Payload() payload: S2spConsumerPayload<{ column: string }>): {
    counts: Record<string, number>;
    descriptions: number;
  } {
    const counts: Record<string, number> = {};
    for (const row of payload.rows)
      counts[String(row[payload.column])] = (counts[String(row[payload.column])] ?? 0) + 1;
    return { counts, descriptions: payload.rows.filter((row) => typeof row.description === 'string').length };
  }
}

/** The app's own planner: the wind alerts of the state the objective names, counted by event. */
@Injectable()
export class WindAlertsPlanner implements TaskPlanner {
  readonly name = 'wind-alerts';

  next(task: TaskDefinition, context: PlannerContext): PlannerDecision {
    const area = /\b([A-Z]{2})\b/.exec(task.objective.natural_language)?.[1] ?? 'CA';
    if (!context.hasCompleted('alerts')) {
      return {
        type: 'step',
        step: {
          kind: 'resource_call',
          stepId: 'alerts',
          dependsOn: [],
          server: 'tools',
          tool: 'get_alerts',
          arguments: { area },
          abstractDomains: ['event'],
          mode: 'async',
        },
      };
    }
    if (!context.hasCompleted('wind')) {
      return {
        type: 'step',
        step: {
          kind: 'filter',
          stepId: 'wind',
          dependsOn: ['alerts'],
          inputStepId: 'alerts',
          predicate: { field: 'event', op: 'contains', value: 'Wind' },
        },
      };
    }
    if (!context.hasCompleted('count')) {
      return {
        type: 'step',
        step: {
          kind: 'consumer_call',
          stepId: 'count',
          dependsOn: ['wind'],
          server: 'tools',
          tool: 'count_by',
          arguments: { column: 'event' },
          columnMapping: {},
          inputStepId: 'wind',
        },
      };
    }
    return { type: 'done', summary: `wind alerts in ${area} counted` };
  }
}

const toolsPort = Number(process.env.TOOLS_PORT);
const toolsBase = `http://127.0.0.1:${toolsPort}`;

@Module({
  imports: [
    S2spModule.forRoot({
      publicBaseUrl: toolsBase,
      allowedResourceOrigins: [toolsBase],
      resourceStore: { useValue: new InMemoryResourceStore() },
    }),
  ],
  controllers: [AlertsController, CountController],
})
export class ToolsModule {}

async function main(): Promise<void> {
  const tools = await serveMcp(ToolsModule, {
    name: 'tools',
    version: '1.0.0',
    host: '127.0.0.1',
    port: toolsPort,
    transport: 'http',
    httpAdapter: new FastifyAdapter(),
  });
  const agents = await startAgents(agentsConfigFromEnv(), { planner: WindAlertsPlanner, logger: ['error', 'warn'] });
  const gateway = await startGateway({ ...gatewayConfigFromEnv(), logger: ['error', 'warn'] });
  console.log(`LISTENING ${gateway.url}`);
  process.once('SIGTERM', () => {
    void (async () => {
      await gateway.shutdown();
      await agents.shutdown();
      await tools.shutdown();
      process.exit(0);
    })();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
