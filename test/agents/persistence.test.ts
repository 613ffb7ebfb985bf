import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningMcpServer } from '@s2sp/core';
import { openS2spDatabase } from '@s2sp/database';
import { fromStruct } from '@s2sp/contracts';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { TEST_SUBJECT } from '../support/tokens';
import { connectAgents, readStream, type AgentsClients, type Message } from '../support/agents-grpc-client';
import {
  alertChartPlan,
  consumerStep,
  getTask,
  resourceStep,
  submitTask,
  waitForSteps,
  waitForTaskEnd,
} from '../support/agent-tasks';
import { startStats, startWeather, tempDir } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';

describe('agents persistence across restarts (PGlite data directory)', () => {
  const dataDir = tempDir('s2sp-agents-');
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents | undefined;
  let clients: AgentsClients | undefined;

  const config = () =>
    agentsTestConfig(
      [
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'stats', url: `${stats.url}/mcp` },
        { id: 'testkit', url: testkit.mcpUrl },
      ],
      { dataDir: dataDir.path },
    );
  const start = async () => {
    agents = await startTestAgents(config());
    clients = connectAgents(agents.url);
    return clients;
  };
  const stop = async () => {
    clients?.close();
    clients = undefined;
    await agents?.close();
    agents = undefined;
  };

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    testkit = await startTestMcpServer();
  });

  after(async () => {
    await stop();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
    dataDir.remove();
  });

  test('finished tasks still answer after a restart; tasks cut off by shutdown or crash are FAILED', async () => {
    let client = await start();
    const finished = await submitTask(client.agents, { plan: alertChartPlan() });
    const before = await waitForTaskEnd(client.agents, finished.task_id);
    assert.equal(before.status, 'TASK_STATUS_SUCCEEDED');

    const running = await submitTask(client.agents, {
      plan: [
        resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }),
        consumerStep('sink', 'alerts', { tool: 'slow_consumer', server: 'testkit', args: { ms: 20_000 } }),
      ],
    });
    await waitForSteps(client.agents, running.task_id, 2);
    await stop();

    // A task a crash left RUNNING (written while the agents are down).
    const crashedId = '0190a5b2-2222-7000-8000-000000000001';
    const database = await openS2spDatabase({ dataDir: dataDir.path });
    try {
      await database.client.agentTask.create({
        data: {
          id: crashedId,
          status: 'RUNNING',
          agentType: 's2sp-pipeline',
          objective: {},
          constraints: {},
          plan: [],
          usage: {},
          caller: TEST_SUBJECT,
        },
      });
    } finally {
      await database.close();
    }

    client = await start();
    const after = await getTask(client.agents, finished.task_id);
    assert.equal(after.status, 'TASK_STATUS_SUCCEEDED');
    assert.deepEqual(
      after.steps.map((step: Message) => [step.step_number, step.type, step.summary]),
      before.steps.map((step: Message) => [step.step_number, step.type, step.summary]),
    );
    assert.deepEqual(after.usage, before.usage);
    assert.deepEqual(fromStruct(after.result), fromStruct(before.result));
    const replay = await readStream(client.agents.StreamTask({ task_id: finished.task_id }));
    assert.equal(replay.length, 4);

    const interrupted = await getTask(client.agents, running.task_id);
    assert.equal(interrupted.status, 'TASK_STATUS_FAILED');
    assert.match(interrupted.error.message, /interrupted by agents shutdown/);
    assert.ok(interrupted.steps.length >= 2, 'the steps written before the shutdown are kept');

    const crashed = await getTask(client.agents, crashedId);
    assert.equal(crashed.status, 'TASK_STATUS_FAILED');
    assert.equal(crashed.error.code, 1000);
    assert.match(crashed.error.message, /interrupted by agents restart/);
    assert.equal(crashed.error.recovery_hint, 'RESUBMIT_TASK');
  });
});
