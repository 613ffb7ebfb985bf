import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JSONRPCClient } from 'json-rpc-2.0';
import type { RunningMcpServer } from '@s2sp/core';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { testGatewayConfig } from '../support/gateway-harness';
import { gatewayRpcClient } from '../support/gateway-rpc-client';
import {
  startScriptedModelServer,
  type ModelWireFormat,
  type ScriptedModelMove,
  type ScriptedModelServer,
} from '../support/scripted-model-server';
import { startStats, startWeather, tempDir } from '../support/stack';
import { ALL_TEST_SCOPES, tokenFromScript } from '../support/tokens';
import {
  assertNothingLeaked,
  assertWindChart,
  connectExampleServers,
  WIND_CHART_OBJECTIVE,
  windChartMove,
  windChartTruth,
  type WindChartTruth,
} from '../support/wind-chart-agent';

interface TaskSnapshot {
  status: string;
  result?: { summary?: string };
  error?: { code: number; message: string };
  steps?: Array<{ type: string; outcome: string }>;
}

const MODEL_KEY = 'sk-test-planner-key';

/** The wind chart task as a planner's model plays it: the same moves as the framework agents' scripted model. */
function windChartScript(results: string[]): ScriptedModelMove {
  const move = windChartMove(results);
  return 'answer' in move ? { tool: 'finish', args: { summary: results[1] } } : { tool: move.tool, args: move.args };
}

/**
 * The agents' model planner through the whole platform path: agent.submitTask with only an
 * objective → gateway → agents, whose planner asks a scripted model on loopback (each wire format)
 * for every step → weather and stats servers.
 */
function describeModelPlanner(format: ModelWireFormat, hostile: boolean): void {
  describe(`model planner over ${format}: agent.submitTask with only an objective`, () => {
    const dir = tempDir('s2sp-model-planner-');
    let weather: RunningMcpServer;
    let stats: RunningMcpServer;
    let model: ScriptedModelServer;
    let agents: RunningAgents;
    let gateway: RunningGateway;
    let rpc: JSONRPCClient;
    let truth: WindChartTruth;

    before(async () => {
      weather = await startWeather();
      stats = await startStats([weather.url]);
      const clients = await connectExampleServers({ weatherUrl: weather.url, statsUrl: stats.url });
      truth = await windChartTruth(clients.weather);
      await clients.close();
      model = await startScriptedModelServer();
      const keyFile = join(dir.path, 'model-key');
      writeFileSync(keyFile, `${MODEL_KEY}\n`);
      agents = await startTestAgents(
        agentsTestConfig(
          [
            { id: 'weather', url: `${weather.url}/mcp` },
            { id: 'stats', url: `${stats.url}/mcp` },
          ],
          { planner: 'model', model: { api: format, url: model.url, model: 'scripted-1', apiKeyFile: keyFile } },
        ),
      );
      gateway = await startGateway(testGatewayConfig(agents.url, ':memory:'));
      const authorization = `Bearer ${await tokenFromScript({ subject: 'alice', scopes: ALL_TEST_SCOPES })}`;
      rpc = gatewayRpcClient(gateway.url, authorization);
    });
    after(async () => {
      await gateway?.close();
      await agents?.close();
      await model?.close();
      await stats?.close();
      await weather?.close();
      dir.remove();
    });

    async function submit(
      script: (results: string[]) => ScriptedModelMove,
      constraints?: Record<string, unknown>,
    ): Promise<string> {
      model.script = script;
      model.requests.length = 0;
      const submitted = (await rpc.request('agent.submitTask', {
        objective: WIND_CHART_OBJECTIVE,
        plan: [],
        ...(constraints ? { constraints } : {}),
      })) as { task_id: string };
      return submitted.task_id;
    }

    async function runTask(
      script: (results: string[]) => ScriptedModelMove,
      constraints?: Record<string, unknown>,
    ): Promise<TaskSnapshot> {
      const taskId = await submit(script, constraints);
      return finished(taskId);
    }

    function finished(taskId: string): Promise<TaskSnapshot> {
      return eventually(
        `task ${taskId} to finish`,
        async () => {
          const task = (await rpc.request('agent.getTask', { task_id: taskId })) as TaskSnapshot;
          return ['succeeded', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
        },
        30_000,
        100,
      );
    }

    test('the model plans the wind chart from the control plane alone; its requests hold no body value nor resource_url', async () => {
      const task = await runTask(windChartScript);
      assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
      assertWindChart(task.result?.summary ?? '', truth);
      const prompts = model.requests.map((request) => JSON.stringify(request.body));
      assertNothingLeaked(prompts, truth);
      const [first] = model.requests;
      const toolNames = (first.body.tools as Array<Record<string, any>>).map(
        (tool) => tool.name ?? tool.function?.name,
      );
      assert.deepEqual(toolNames.sort(), ['draw_chart', 'finish', 'get_alerts']);
      if (format === 'openai-chat') assert.equal(first.headers.authorization, `Bearer ${MODEL_KEY}`);
      else assert.equal(first.headers['x-api-key'], MODEL_KEY);
    });

    if (!hostile) return;

    const failures: Array<[string, (results: string[]) => ScriptedModelMove, RegExp]> = [
      [
        'an unknown tool',
        () => ({ tool: 'delete_everything', args: {} }),
        /called "delete_everything", which is not one of the task's tools/,
      ],
      [
        'arguments that are not JSON',
        () => ({ tool: 'get_alerts', args: '{"area": "CA",' }),
        /wrote arguments for get_alerts that are not a JSON object/,
      ],
      [
        'rows chosen by a body column',
        (results) =>
          results.length === 0
            ? { tool: 'get_alerts', args: { area: 'CA', abstract_domains: 'event' } }
            : {
                tool: 'draw_chart',
                args: { handle: (JSON.parse(results[0]) as { handle: string }).handle, where: { description: 'x' } },
              },
        /by "description", which is not one of its abstract columns \(event\)/,
      ],
      [
        'a loop',
        () => ({ tool: 'get_alerts', args: { area: 'CA', abstract_domains: 'event' } }),
        /called get_alerts again with the same arguments \(a loop\)/,
      ],
      [
        'a handle it made up',
        () => ({ tool: 'draw_chart', args: { handle: 'model-99' } }),
        /called draw_chart with the unknown handle "model-99"/,
      ],
    ];
    for (const [what, script, reason] of failures) {
      test(`a model answer with ${what} fails the task with the reason, and the agents go on`, async () => {
        const task = await runTask(script);
        assert.equal(task.status, 'failed');
        assert.match(task.error?.message ?? '', reason);
      });
    }

    test("the task's constraints bound the model: max_steps, token_budget, permitted_tools", async () => {
      const oneStep = await runTask(windChartScript, { max_steps: 1 });
      assert.equal(oneStep.status, 'failed');
      assert.equal(oneStep.error?.code, 1001, JSON.stringify(oneStep.error));

      const tinyBudget = await runTask(windChartScript, { token_budget: 10 });
      assert.equal(tinyBudget.status, 'failed');
      assert.equal(tinyBudget.error?.code, 1007, JSON.stringify(tinyBudget.error));

      const alertsOnly = await runTask(windChartScript, { permitted_tools: ['weather/get_alerts'] });
      const offered = (model.requests[0].body.tools as Array<{ function: { name: string } }>).map(
        (tool) => tool.function.name,
      );
      assert.deepEqual(offered.sort(), ['finish', 'get_alerts'], 'the model is offered only the permitted tools');
      assert.equal(alertsOnly.status, 'failed');
      assert.match(
        alertsOnly.error?.message ?? '',
        /called "draw_chart", which is not one of the task's tools \(get_alerts, finish\)/,
      );
    });

    test('a hard cancel stops the task while it waits for its model', async () => {
      model.delayMs = 5_000;
      try {
        const taskId = await submit(windChartScript);
        await eventually('the planner to ask its model', async () => (model.requests.length > 0 ? true : undefined));
        await rpc.request('agent.cancelTask', { task_id: taskId, mode: 'hard', reason: 'no longer needed' });
        const task = await finished(taskId);
        assert.equal(task.status, 'cancelled', JSON.stringify(task.error));
      } finally {
        model.delayMs = 0;
      }
    });

    test("the task's deadline bounds the wait for its model: DEADLINE_EXCEEDED at the model hop", async () => {
      model.delayMs = 5_000;
      try {
        model.script = windChartScript;
        const { task_id } = (await rpc.request('agent.submitTask', {
          objective: WIND_CHART_OBJECTIVE,
          plan: [],
          deadline_ms: Date.now() + 1_500,
        })) as { task_id: string };
        const task = await finished(task_id);
        assert.equal(task.status, 'failed');
        assert.equal(task.error?.code, 1006, JSON.stringify(task.error));
        assert.match(task.error?.message ?? '', /hop model/);
      } finally {
        model.delayMs = 0;
      }
    });

    test('after those, a well-behaved model still completes the task', async () => {
      const task = await runTask(windChartScript);
      assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
      assertWindChart(task.result?.summary ?? '', truth);
    });
  });
}

describeModelPlanner('openai-chat', true);
describeModelPlanner('anthropic-messages', false);
