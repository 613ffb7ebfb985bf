import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { waitUntilReady } from '../support/app-processes';
import { eventually } from '../support/agents-stack';
import { connectAgents, type AgentsClients, type Message } from '../support/agents-grpc-client';
import { freePort } from '../support/free-port';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { getTask } from '../support/agent-tasks';
import { ReplicaDeployment } from '../support/replica-deployment';
import { fetchResource } from '../support/stack';
import { bearerFor } from '../support/tokens';

/** Seven app processes and migrations on a loaded 2-core machine: a bound for a stuck start, not a timing claim. */
const READY_WITHIN_MS = 120_000;
const RATE_LIMIT = 20;
const SUBJECT = 'replica-user';

interface Replicas {
  gateways: [string, string];
  agents: [AgentsClients, AgentsClients];
  weather: [string, string];
}

/**
 * Issue 14: two gateways, two agents, two weather servers and a stats server,
 * each its own process on loopback, sharing one PostgreSQL database and one
 * Redis (REDIS_URL). gateway-N calls agents-N, agents-N calls weather-N: a
 * request sent to one replica concerns state another replica holds.
 */
// The tests are independent (each its own task, caller or resource): they run at once.
describe('several replicas of each app on shared PostgreSQL and Redis', { concurrency: true }, () => {
  const deployment = new ReplicaDeployment();
  let replicas: Replicas;

  before(async () => {
    if (!(await deployment.open())) return;
    const [weather1, weather2, stats, agents1, agents2, gateway1, gateway2] = await Promise.all(
      Array.from({ length: 7 }, () => freePort()),
    );
    const weatherEnv = (port: number) => ({ WEATHER_PORT: String(port) });
    const weatherOrigins = [weather1, weather2].map((port) => `http://127.0.0.1:${port}`);
    deployment.start('weather-server', 'weather-1', weatherEnv(weather1));
    deployment.start('weather-server', 'weather-2', weatherEnv(weather2));
    deployment.start('stats-server', 'stats', {
      STATS_PORT: String(stats),
      STATS_ALLOWED_RESOURCE_ORIGINS: weatherOrigins.join(','),
      STATS_RESOURCE_AUDIENCES: weatherOrigins.map((origin) => `${origin}=weather-server`).join(','),
    });
    const agentsEnv = (port: number, weather: number) => ({
      AGENTS_PORT: String(port),
      AGENTS_METRICS_PORT: '0',
      // The MCP servers start with the agents: retry them often rather than backing off for long.
      AGENTS_MCP_RECONNECT_MAX_MS: '1000',
      AGENTS_MCP_SERVERS: `weather=http://127.0.0.1:${weather}/mcp,stats=http://127.0.0.1:${stats}/mcp,testkit=${deployment.testkit!.mcpUrl}`,
    });
    deployment.start('agents', 'agents-1', agentsEnv(agents1, weather1));
    deployment.start('agents', 'agents-2', agentsEnv(agents2, weather2));
    const gatewayEnv = (port: number, agents: number) => ({
      GATEWAY_PORT: String(port),
      GATEWAY_AGENTS_URL: `127.0.0.1:${agents}`,
      GATEWAY_RATE_LIMIT: String(RATE_LIMIT),
      GATEWAY_RATE_LIMIT_WINDOW_MS: '600000',
      // A task's deadline is its submitting call's: long enough for a step on a loaded machine.
      GATEWAY_DEFAULT_DEADLINE_MS: '120000',
      GATEWAY_MAX_DEADLINE_MS: '120000',
    });
    deployment.start('gateway', 'gateway-1', gatewayEnv(gateway1, agents1));
    deployment.start('gateway', 'gateway-2', gatewayEnv(gateway2, agents2));
    const gateways: [string, string] = [`http://127.0.0.1:${gateway1}`, `http://127.0.0.1:${gateway2}`];
    // A gateway answers "ok" once its agents are up and connected to their MCP servers.
    for (const gateway of gateways) {
      await waitUntilReady(
        `${gateway}/health`,
        async (response) => ((await response.json()) as { status?: string }).status === 'ok',
        deployment.started,
        READY_WITHIN_MS,
      );
    }
    replicas = {
      gateways,
      agents: [
        connectAgents(`127.0.0.1:${agents1}`, { subject: SUBJECT }),
        connectAgents(`127.0.0.1:${agents2}`, { subject: SUBJECT }),
      ],
      weather: weatherOrigins as [string, string],
    };
  });

  after(async () => {
    for (const clients of replicas?.agents ?? []) clients.close();
    await deployment.close();
  });

  test('rate limits are counted across the gateway replicas', async (t) => {
    if (!deployment.ready(t)) return;
    const answers = [];
    // Alternating replicas: counted per process, each would allow every one of these calls.
    for (let index = 0; index < RATE_LIMIT + 10; index++) {
      answers.push(await rpc(replicas.gateways[index % 2], 'tools.list', {}, 'rate-probe'));
    }
    assert.equal(
      answers.filter((answer) => answer.result).length,
      RATE_LIMIT,
      JSON.stringify(answers.find((answer) => answer.error && answer.error.code !== 5001)),
    );
    const refused = answers.filter((answer) => answer.error);
    assert.equal(refused.length, 10);
    assert.ok(refused.every((answer) => answer.error.code === 5001 && answer.error.data.retry_after >= 1));
  });

  test('an idempotency key is exactly-once across the gateway replicas, and the task runs on one agents replica', async (t) => {
    if (!deployment.ready(t)) return;
    const params = {
      objective: 'chart CA alerts once',
      plan: alertChartPlan(),
      idempotency_key: `replicas-${randomBytes(4).toString('hex')}`,
    };
    const [first, second] = await Promise.all(
      replicas.gateways.map((gateway) => rpc(gateway, 'agent.submitTask', params)),
    );
    assert.ok(first.result?.task_id, JSON.stringify(first));
    assert.deepEqual(second.result, first.result, 'both replicas answer with the one task');
    assert.deepEqual((await rpc(replicas.gateways[1], 'agent.submitTask', params)).result, first.result);

    const taskId = first.result.task_id as string;
    await eventually(
      'the task to end',
      async () => /SUCCEEDED|FAILED|CANCELLED/.test((await getTask(replicas.agents[1].agents, taskId)).status),
      60_000,
      200,
    );
    const done = (await rpc(replicas.gateways[1], 'agent.getTask', { task_id: taskId })).result;
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    // Both agents replicas replay the same steps, wherever the task ran.
    const [fromFirst, fromSecond] = await Promise.all(replicas.agents.map((clients) => readSteps(clients, taskId)));
    assert.deepEqual(
      fromFirst.map((step) => step.summary),
      fromSecond.map((step) => step.summary),
    );
    assert.equal(fromFirst.length, done.steps.length);
  });

  test('a hard cancel sent to the agents replica that does not run the task stops it; that replica streams its steps live', async (t) => {
    if (!deployment.ready(t)) return;
    // gateway-1 → agents-1 runs the task; agents-2 streams it and gateway-2 (→ agents-2) cancels it.
    const submitted = await rpc(replicas.gateways[0], 'agent.submitTask', {
      objective: 'wait a long time',
      plan: slowPlan([['sink', 60_000]]),
    });
    const taskId = submitted.result.task_id as string;
    const stream = followSteps(replicas.agents[1], taskId);
    await eventually('the plan and the alerts step streamed by agents-2', () => stream.steps.length >= 2, 60_000);
    assert.equal(stream.ended(), false, 'the task is still running on agents-1');

    const cancelled = await rpc(replicas.gateways[1], 'agent.cancelTask', {
      task_id: taskId,
      mode: 'hard',
      reason: 'user left',
    });
    assert.equal(cancelled.result?.status, 'cancelled', JSON.stringify(cancelled));
    const streamed = await stream.done;
    assert.deepEqual(
      streamed.map((step) => [step.plan_step_id, step.outcome]),
      [
        ['', 'STEP_OUTCOME_SUCCESS'],
        ['alerts', 'STEP_OUTCOME_SUCCESS'],
        ['sink', 'STEP_OUTCOME_FAILURE'],
      ],
      'the aborted step reached the stream live, and the stream ended with the task',
    );
    for (const gateway of replicas.gateways) {
      const task = (await rpc(gateway, 'agent.getTask', { task_id: taskId })).result;
      assert.equal(task.status, 'cancelled');
      assert.equal(task.error.code, 1005);
      assert.match(task.error.message, /hard.*user left/);
    }
    const again = await rpc(replicas.gateways[1], 'agent.cancelTask', { task_id: taskId, mode: 'hard' });
    assert.match(again.error?.message ?? '', /already ended CANCELLED/);
  });

  test('a soft cancel sent to the other agents replica lets the running step finish and starts no other', async (t) => {
    if (!deployment.ready(t)) return;
    // gateway-2 → agents-2 runs it; gateway-1 (→ agents-1) cancels it.
    const submitted = await rpc(replicas.gateways[1], 'agent.submitTask', {
      objective: 'two slow reads',
      plan: slowPlan([
        ['first', 3_000],
        ['second', 3_000],
      ]),
    });
    const taskId = submitted.result.task_id as string;
    await eventually(
      'the alerts step, read on agents-1',
      async () => (await getTask(replicas.agents[0].agents, taskId)).steps.length >= 2,
      60_000,
      100,
    );
    const cancelling = await rpc(replicas.gateways[0], 'agent.cancelTask', {
      task_id: taskId,
      mode: 'soft',
      reason: 'plan obsolete',
    });
    if (cancelling.result?.status !== 'cancelling') {
      assert.fail(
        `cancel answered ${JSON.stringify(cancelling)}; the task: ${JSON.stringify((await getTask(replicas.agents[0].agents, taskId)).error)}`,
      );
    }
    const task = await eventually(
      'the task to end',
      async () => {
        const snapshot = await getTask(replicas.agents[0].agents, taskId);
        return snapshot.status === 'TASK_STATUS_CANCELLED' || snapshot.status === 'TASK_STATUS_FAILED'
          ? snapshot
          : undefined;
      },
      60_000,
      200,
    );
    assert.equal(task.status, 'TASK_STATUS_CANCELLED');
    assert.deepEqual(
      task.steps.map((step: Message) => [step.plan_step_id, step.outcome]),
      [
        ['', 'STEP_OUTCOME_SUCCESS'],
        ['alerts', 'STEP_OUTCOME_SUCCESS'],
        ['first', 'STEP_OUTCOME_SUCCESS'],
      ],
    );
    assert.match(task.error.message, /plan obsolete/);
  });

  test('a resource_url issued by one weather replica is served once, by any replica', async (t) => {
    if (!deployment.ready(t)) return;
    const issue = async (weather: string) => {
      const mcp = await connectMcp(weather);
      try {
        return jsonOf(await mcp.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }))
          .resource_url as string;
      } finally {
        await mcp.close();
      }
    };
    const onReplica = (resourceUrl: string, weather: string) => `${weather}${new URL(resourceUrl).pathname}`;

    const fromSecond = await issue(replicas.weather[1]);
    assert.equal(
      (await fetchResource(onReplica(fromSecond, replicas.weather[0]))).status,
      200,
      'weather-1 serves what weather-2 issued',
    );
    assert.equal((await fetchResource(onReplica(fromSecond, replicas.weather[1]))).status, 404, 'and only once');

    const fromFirst = await issue(replicas.weather[0]);
    const fetches = await Promise.all(
      Array.from({ length: 40 }, (_, index) => fetchResource(onReplica(fromFirst, replicas.weather[index % 2]))),
    );
    const statuses = fetches.map((fetched) => fetched.status);
    assert.equal(statuses.filter((status) => status === 200).length, 1, `statuses: ${statuses.join(',')}`);
    assert.ok(
      statuses.every((status) => status === 200 || status === 404),
      `statuses: ${statuses.join(',')}`,
    );
  });
});

/** One JSON-RPC call to a gateway as `subject` (a JSON-RPC client's request, by hand). */
async function rpc(
  gateway: string,
  method: string,
  params: unknown,
  subject = SUBJECT,
): Promise<{ result?: any; error?: any }> {
  const response = await fetch(`${gateway}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: await bearerFor({ audience: 'gateway', subject }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: any };
}

/** StreamTask on one replica: the steps as they arrive, and when the stream ends. */
function followSteps(
  clients: AgentsClients,
  taskId: string,
): { steps: Message[]; ended(): boolean; done: Promise<Message[]> } {
  const steps: Message[] = [];
  let ended = false;
  const call = clients.agents.StreamTask({ task_id: taskId });
  const done = new Promise<Message[]>((resolve, reject) => {
    call.on('data', (step: Message) => steps.push(step));
    call.on('error', reject);
    call.on('end', () => {
      ended = true;
      resolve(steps);
    });
  });
  return { steps, ended: () => ended, done };
}

function readSteps(clients: AgentsClients, taskId: string): Promise<Message[]> {
  return followSteps(clients, taskId).done;
}

/** weather get_alerts (sync) → FILTER → stats draw_chart: every app takes part. */
function alertChartPlan(): unknown[] {
  return [
    {
      step_id: 'alerts',
      resource_call: {
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'CA' },
        abstract_domains: ['event', 'severity'],
        mode: 'async',
      },
    },
    {
      step_id: 'pick',
      filter: {
        input_step_id: 'alerts',
        predicate: { field: 'severity', op: 'in', value: ['Severe', 'Moderate', 'Extreme'] },
      },
    },
    {
      step_id: 'chart',
      consumer_call: {
        server: 'stats',
        tool: 'draw_chart',
        arguments: { group_by: 'event' },
        input_step_id: 'pick',
        column_mapping: {},
      },
    },
  ];
}

/** weather get_alerts (sync), then one slow_reader step per [step id, ms]. */
function slowPlan(reads: Array<[string, number]>): unknown[] {
  return [
    {
      step_id: 'alerts',
      resource_call: {
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'CA' },
        abstract_domains: ['event'],
        mode: 'sync',
      },
    },
    ...reads.map(([stepId, ms]) => ({
      step_id: stepId,
      consumer_call: {
        server: 'testkit',
        tool: 'slow_reader',
        arguments: { ms },
        input_step_id: 'alerts',
        column_mapping: {},
      },
    })),
  ];
}
