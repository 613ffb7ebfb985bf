// AgentsModule.forRootAsync: the configuration comes from the app's own configuration module
// when the app starts, is validated then (the start fails naming the field), and the seams
// (here a planner, the approval provider and the task event bus) are given beside the factory.
// The app is served over gRPC by serveAgents, as startAgents serves forRoot's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { fromStruct } from '@s2sp/contracts';
import type { RunningMcpServer } from '@s2sp/core';
import {
  AgentsModule,
  APPROVAL_PROVIDER,
  serveAgents,
  TASK_EVENTS,
  TASK_PLANNER,
  type AgentsConfig,
  type AgentsModuleAsyncOptions,
  type ApprovalProvider,
  type PlannerContext,
  type PlannerDecision,
  type RunningAgents,
  type TaskDefinition,
  type TaskEvents,
  type TaskPlanner,
} from '@s2sp/agents';
import { agentsTestConfig } from '../support/agents-stack';
import { connectAgents, unary, type AgentsClients, type Message } from '../support/agents-grpc-client';
import { resourceStep, submitTask, waitForTaskEnd } from '../support/agent-tasks';
import { startWeather } from '../support/stack';

/** The app's own configuration, as a ConfigModule would provide it. */
const APP_CONFIG = Symbol('APP_CONFIG');

interface AppConfig {
  agents: AgentsConfig;
}

function configModule(config: AppConfig): DynamicModule {
  @Module({})
  class AppConfigModule {}
  return { module: AppConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
}

/** The app's root module: the agents, configured from the app's configuration when the app starts. */
function appModule(config: AppConfig, seams: Omit<AgentsModuleAsyncOptions, 'useFactory'> = {}): DynamicModule {
  @Module({})
  class AppModule {}
  return {
    module: AppModule,
    imports: [
      AgentsModule.forRootAsync({
        imports: [configModule(config)],
        inject: [APP_CONFIG],
        useFactory: async (app: AppConfig) => app.agents,
        ...seams,
      } as AgentsModuleAsyncOptions),
    ],
  };
}

/** Fetches Texas alerts whatever the task's plan says, then answers with how many rows it saw. */
@Injectable()
class TexasPlanner implements TaskPlanner {
  readonly name = 'texas';

  next(_task: TaskDefinition, context: PlannerContext): PlannerDecision {
    if (context.hasCompleted('texas')) {
      return { type: 'done', result: { planned_by: this.name, rows: context.rowsOf('texas')?.length ?? -1 } };
    }
    return {
      type: 'step',
      step: {
        kind: 'resource_call',
        stepId: 'texas',
        dependsOn: [],
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'TX' },
        abstractDomains: ['event'],
        mode: 'async',
      },
    };
  }
}

/** The single-process bus, recording what the runtime published on it. */
class RecordingTaskEvents implements TaskEvents {
  readonly published: string[] = [];
  async publishStep(): Promise<void> {
    this.published.push('step');
  }
  async publishEnd(taskId: string): Promise<void> {
    this.published.push(`end ${taskId}`);
  }
  async follow(): Promise<undefined> {
    return undefined;
  }
  async requestCancel(): Promise<undefined> {
    return undefined;
  }
  handleCancelRequests(): void {}
}

const APPROVE_ALL: ApprovalProvider = { decide: async () => ({ approved: true, approver: 'policy' }) };

/** The agents' configuration for the tests: the approval provider is a seam here, not an auth option. */
function testConfig(weatherUrl: string, overrides: Partial<AgentsConfig> = {}): AgentsConfig {
  return agentsTestConfig([{ id: 'weather', url: `${weatherUrl}/mcp` }], {
    auth: { audience: 'agents' },
    ...overrides,
  });
}

/** Nothing listens there: the configurations that fail are never connected. */
const NO_SERVER = 'http://127.0.0.1:1';

/** Resolves the app's providers without serving them: what fails, fails here, and is thrown rather than ending the process. */
async function createContext(module: DynamicModule): Promise<void> {
  const context = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
  await context.close();
}

describe('AgentsModule.forRootAsync: the configuration from the app’s own module, served by serveAgents', () => {
  let weather: RunningMcpServer;
  let agents: RunningAgents;
  let clients: AgentsClients;
  const taskEvents = new RecordingTaskEvents();

  before(async () => {
    weather = await startWeather();
    agents = await serveAgents(
      appModule(
        { agents: testConfig(weather.url) },
        { planner: TexasPlanner, approvalProvider: APPROVE_ALL, taskEvents },
      ),
      { logger: ['error'] },
    );
    clients = connectAgents(agents.url);
  });
  after(async () => {
    clients?.close();
    await agents?.close();
    await weather?.close();
  });

  test('serves over gRPC: health, and tasks planned by the given planner', async () => {
    const health = await unary(clients.health, 'Check', { service: '' });
    assert.equal(health.status, 'SERVING');

    const accepted = await submitTask(clients.agents, {
      objective: { natural_language: 'whatever the planner decides' },
      plan: [resourceStep('alerts')],
    });
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
    assert.deepEqual(
      task.steps.map((step: Message) => step.plan_step_id),
      ['', 'texas'],
      "the planner's step ran, not the task's plan",
    );
    const result = fromStruct(task.result) as { planned_by: string; rows: number };
    assert.equal(result.planned_by, 'texas');
    assert.ok(result.rows > 0, 'the planner saw the rows of its step');
    assert.ok(agents.app.get(TASK_PLANNER) instanceof TexasPlanner, 'Nest built the given class');
    assert.ok(taskEvents.published.includes(`end ${accepted.task_id}`), 'the task’s end went to the given bus');
  });

  test('the seams given beside the factory are the ones behind their tokens', () => {
    assert.equal(agents.app.get(TASK_EVENTS), taskEvents);
    assert.equal(agents.app.get(APPROVAL_PROVIDER), APPROVE_ALL);
  });
});

describe('AgentsModule.forRootAsync: a configuration that cannot work fails the start, naming the field', () => {
  test('a bad value, found when the factory has made the configuration', async () => {
    await assert.rejects(
      createContext(appModule({ agents: testConfig(NO_SERVER, { maxRunningTasks: 0 }) })),
      /maxRunningTasks must be an integer from 1/,
    );
  });

  test('AuthModule’s providers in the configuration the factory made: refused, saying where they go', async () => {
    const auth = { audience: 'agents', approvalProvider: { useValue: APPROVE_ALL } };
    await assert.rejects(
      createContext(appModule({ agents: testConfig(NO_SERVER, { auth }) })),
      /auth\.approvalProvider cannot be made at run time.*pass approvalProvider to forRootAsync itself/,
    );
  });
});
