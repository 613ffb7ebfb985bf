import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitUntilReady, type AppProcess } from '../support/app-processes';
import { eventually } from '../support/agents-stack';
import { setTimeout as delay } from 'node:timers/promises';
import { connectAgents, readStream, unary, type AgentsClients } from '../support/agents-grpc-client';
import { freePort } from '../support/free-port';
import { getTask } from '../support/agent-tasks';
import { ReplicaDeployment, slowTaskPlan } from '../support/replica-deployment';

/** App processes on a loaded 2-core machine: a bound for a stuck start, not a timing claim. */
const READY_WITHIN_MS = 120_000;
/** Short leases, so that the tasks of the replica the test kills are found soon (and long enough for a loaded machine). */
const LEASE_MS = 8_000;

/**
 * Agents replicas on one database and Redis hold a lease on the tasks they run
 * (libs/agents/src/tasks/events/task-leases.ts): a replica that starts fails
 * only the unfinished tasks nobody holds, and the tasks of a replica that died
 * are failed by the others instead of showing RUNNING forever.
 */
describe('agents replicas: tasks left behind by a replica, and only those, are failed', () => {
  const deployment = new ReplicaDeployment();
  let agentsEnv: (port: number) => NodeJS.ProcessEnv;
  let first: AgentsClients;

  before(async () => {
    if (!(await deployment.open())) return;
    const [weather, agents] = [await freePort(), await freePort()];
    deployment.start('weather-server', 'weather', { WEATHER_PORT: String(weather) });
    agentsEnv = (port) => ({
      AGENTS_PORT: String(port),
      AGENTS_METRICS_PORT: '0',
      AGENTS_TASK_LEASE_MS: String(LEASE_MS),
      AGENTS_MCP_RECONNECT_MAX_MS: '1000',
      AGENTS_MCP_SERVERS: `weather=http://127.0.0.1:${weather}/mcp,testkit=${deployment.testkit!.mcpUrl}`,
    });
    deployment.start('agents', 'agents-1', agentsEnv(agents));
    await waitUntilReady(
      `http://127.0.0.1:${weather}/s2sp/health`,
      async (response) => response.ok,
      deployment.started,
      READY_WITHIN_MS,
    );
    first = connectAgents(`127.0.0.1:${agents}`);
    await eventually(
      'agents-1 to answer',
      async () => (await unary(first.health, 'Check', { service: '' })).status === 'SERVING',
      READY_WITHIN_MS,
      200,
    );
  });

  after(async () => {
    first?.close();
    await deployment.close();
  });

  test('a replica that starts leaves a running replica’s task alone; the task of a replica that was killed is failed by another', async (t) => {
    if (!deployment.ready(t)) return;
    const runningOnFirst = (await unary(first.agents, 'SubmitTask', { task: { plan: slowTaskPlan(120_000) } }))
      .task_id as string;
    await eventually(
      'the task to run on agents-1',
      async () => (await getTask(first.agents, runningOnFirst)).steps.length >= 2,
      60_000,
      100,
    );

    const port = await freePort();
    const second: AppProcess = deployment.start('agents', 'agents-2', agentsEnv(port));
    const clients = connectAgents(`127.0.0.1:${port}`);
    try {
      // Answering means its startup sweep of unfinished tasks has run.
      assert.equal(
        await eventually(
          'agents-2 to answer',
          async () => (await getTask(clients.agents, runningOnFirst)).status,
          READY_WITHIN_MS,
          200,
        ),
        'TASK_STATUS_RUNNING',
      );

      const onSecond = (await unary(clients.agents, 'SubmitTask', { task: { plan: slowTaskPlan(120_000) } }))
        .task_id as string;
      await eventually(
        'the task to run on agents-2',
        async () => (await getTask(first.agents, onSecond)).steps.length >= 2,
        60_000,
        100,
      );
      // A follower on agents-1 of the task agents-2 runs: it must end when the task is failed, not stay open.
      const followed = readStream(first.agents.StreamTask({ task_id: onSecond }));
      await second.kill();
      const abandoned = await eventually(
        'agents-1 to fail the task of the killed replica',
        async () => {
          const snapshot = await getTask(first.agents, onSecond);
          return snapshot.status === 'TASK_STATUS_FAILED' ? snapshot : undefined;
        },
        60_000,
        250,
      );
      assert.match(abandoned.error.message, /replica running the task stopped/);
      const streamed = await Promise.race([followed, delay(30_000, 'still open' as const, { ref: false })]);
      assert.notEqual(streamed, 'still open', 'the StreamTask follower on agents-1 ended with the task');
      assert.ok(Array.isArray(streamed) && streamed.length >= 2, 'it got the steps stored before agents-2 was killed');
      assert.equal(
        (await getTask(first.agents, runningOnFirst)).status,
        'TASK_STATUS_RUNNING',
        'the task of the live replica still runs',
      );
    } finally {
      clients.close();
      await unary(first.agents, 'CancelTask', { task_id: runningOnFirst, mode: 'CANCEL_MODE_HARD' }).catch(
        () => undefined,
      );
    }
  });
});
