import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Injectable } from '@nestjs/common';
import { fromStruct } from '@s2sp/contracts';
import type { RunningMcpServer } from '@s2sp/core';
import type { PlannerContext } from '../../libs/agents/src/tasks/planner-context';
import type { TaskDefinition } from '../../libs/agents/src/tasks/task-definition';
import { TASK_PLANNER, type PlannerDecision, type TaskPlanner } from '../../libs/agents/src/tasks/task-planner';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, type AgentsClients, type Message } from '../support/agents-grpc-client';
import { filterStep, resourceStep, submitTask, waitForTaskEnd } from '../support/agent-tasks';
import { startWeather } from '../support/stack';
import { sample } from '../telemetry/telemetry-fixtures';

/** Ignores the task's own plan: fetches Texas alerts, then answers with what it saw. A class, for Nest to build. */
@Injectable()
class TexasPlanner implements TaskPlanner {
  readonly name = 'texas';
  readonly objectives: string[] = [];

  next(task: TaskDefinition, context: PlannerContext): PlannerDecision {
    this.objectives.push(task.objective.natural_language);
    if (!context.hasCompleted('texas-alerts')) {
      return {
        type: 'step',
        step: {
          kind: 'resource_call',
          stepId: 'texas-alerts',
          dependsOn: [],
          tool: 'get_alerts',
          server: 'weather',
          arguments: { area: 'TX' },
          abstractDomains: ['event'],
          mode: 'async',
        },
      };
    }
    return {
      type: 'done',
      result: { planned_by: this.name, abstract_rows: context.rowsOf('texas-alerts')?.length ?? -1 },
    };
  }
}

describe('startAgents(config, { planner }) and the agents metrics port', () => {
  let weather: RunningMcpServer;
  const running: Array<{ agents: RunningAgents; clients: AgentsClients }> = [];

  async function start(
    planner: TaskPlanner | typeof TexasPlanner,
  ): Promise<{ agents: RunningAgents; clients: AgentsClients }> {
    const agents = await startTestAgents(
      agentsTestConfig([{ id: 'weather', url: `${weather.url}/mcp` }], { metricsPort: 0 }),
      { planner },
    );
    const started = { agents, clients: connectAgents(agents.url) };
    running.push(started);
    return started;
  }

  async function runTask(
    clients: AgentsClients,
    plan: Message[] = [resourceStep('alerts'), filterStep('windy', 'alerts')],
  ): Promise<Message> {
    const accepted = await submitTask(clients.agents, {
      objective: { natural_language: 'whatever the planner decides' },
      plan,
    });
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
    return task;
  }

  before(async () => {
    weather = await startWeather();
  });

  after(async () => {
    for (const { agents, clients } of running) {
      clients.close();
      await agents.close();
    }
    await weather?.close();
  });

  test('a planner class replaces the declarative plan: its steps run, its result is the task result', async () => {
    const { agents, clients } = await start(TexasPlanner);
    const planner = agents.app.get<TaskPlanner>(TASK_PLANNER);
    assert.ok(planner instanceof TexasPlanner, 'Nest built the given class behind TASK_PLANNER');

    const task = await runTask(clients);
    assert.deepEqual(
      task.steps.map((step: Message) => [step.type, step.plan_step_id]),
      [
        ['STEP_TYPE_PLAN', ''],
        ['STEP_TYPE_RETRIEVE', 'texas-alerts'],
      ],
      "only the planner's step ran, none of the task's plan (alerts → windy)",
    );
    assert.equal((fromStruct(task.steps[0].payload) as { planner: string }).planner, 'texas');
    const result = fromStruct(task.result) as { planned_by: string; abstract_rows: number };
    assert.equal(result.planned_by, 'texas');
    assert.ok(result.abstract_rows > 0, 'the planner saw the abstract rows of its step');
    assert.deepEqual(
      planner.objectives,
      ['whatever the planner decides', 'whatever the planner decides'],
      'asked once per step and once to finish',
    );
  });

  test('a planner instance is used as given', async () => {
    const calls: string[] = [];
    const instance: TaskPlanner = {
      name: 'instant',
      next: (task) => {
        calls.push(task.taskId);
        return { type: 'done', summary: 'nothing to do' };
      },
    };
    const { clients } = await start(instance);
    const task = await runTask(clients);
    assert.deepEqual(calls, [task.task_id]);
    assert.deepEqual(
      task.steps.map((step: Message) => step.type),
      ['STEP_TYPE_PLAN'],
    );
    assert.equal((fromStruct(task.result) as { summary: string }).summary, 'nothing to do');
  });

  test('metricsPort serves Prometheus text with the documented metric names', async () => {
    const { agents, clients } = running[0] ?? (await start(TexasPlanner));
    await runTask(clients); // a task through this process: a gRPC request and an MCP tool call to count
    assert.ok(agents.metricsUrl, 'startAgents reports the metrics URL');
    assert.match(agents.metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const response = await fetch(agents.metricsUrl);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    for (const name of [
      'protocol_requests_total',
      'protocol_request_duration_seconds',
      'mcp_tool_call_duration_seconds',
      'circuit_breaker_state',
    ]) {
      assert.match(text, new RegExp(`^# TYPE ${name} (counter|histogram|gauge)$`, 'm'), `${name} is exported`);
    }
    assert.ok(
      Number(
        sample(text, 'protocol_requests_total', {
          protocol: 'grpc',
          method: 'AgentService/SubmitTask',
          status: 'success',
        }),
      ) >= 1,
      text,
    );
    assert.ok(
      Number(
        sample(text, 'protocol_request_duration_seconds_count', {
          protocol: 'grpc',
          method: 'AgentService/SubmitTask',
        }),
      ) >= 1,
    );
    assert.ok(
      Number(
        sample(text, 'mcp_tool_call_duration_seconds_count', {
          tool_name: 'get_alerts',
          server_id: 'weather',
          status: 'success',
        }),
      ) >= 1,
    );
    assert.equal(
      sample(text, 'circuit_breaker_state', { service: 'mcp:weather' }),
      0,
      'the MCP server breaker is closed',
    );
  });
});
