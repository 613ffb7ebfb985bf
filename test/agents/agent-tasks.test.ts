import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { S2SP_DATABASE, type RunningMcpServer } from '@s2sp/core';
import { type S2spDatabase } from '@s2sp/database';
import { GRPC_ERROR_METADATA, fromStruct, toStruct } from '@s2sp/contracts';
import { toTimestamp } from '@s2sp/contracts/internal';
import { TaskRuntime } from '../../libs/agents/src/tasks/task-runtime.service';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import {
  connectAgents,
  grpc,
  readStream,
  trailer,
  unary,
  unaryError,
  type AgentsClients,
  type Message,
} from '../support/agents-grpc-client';
import {
  alertChartPlan,
  consumerStep,
  filterStep,
  getTask,
  resourceStep,
  submitTask,
  waitForSteps,
  waitForTaskEnd,
} from '../support/agent-tasks';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { o200kTokens } from '../support/o200k';
import { startStats, startWeather } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ABSTRACT_COLUMNS = ['_row_id', 'event', 'severity'];

describe('agents AgentService: S2SP tasks', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let clients: AgentsClients;

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    testkit = await startTestMcpServer();
    agents = await startTestAgents(
      agentsTestConfig([
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'stats', url: `${stats.url}/mcp` },
        { id: 'testkit', url: testkit.mcpUrl },
      ]),
    );
    clients = connectAgents(agents.url);
  });

  after(async () => {
    clients?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
  });

  const weatherResources = () =>
    weather.app
      .get<S2spDatabase>(S2SP_DATABASE)
      .client.s2spResource.findMany({ where: { toolName: 'get_alerts' }, orderBy: { createdAt: 'asc' } });
  const slowSink = (stepId: string, input: string, ms: number) =>
    consumerStep(stepId, input, { tool: 'slow_consumer', server: 'testkit', args: { ms } });
  const n = (value: unknown) => Number(value);

  test('async task: get_alerts → FILTER → draw_chart; the stats server fetches the body server to server', async () => {
    const resourcesBefore = await weatherResources();
    const accepted = await submitTask(clients.agents, {
      objective: { natural_language: 'Chart the wind and fire alerts of California by urgency' },
      plan: alertChartPlan('DATA_PLANE_MODE_ASYNC', { group_by: 'urgency', title: 'CA wind and fire' }),
    });
    assert.equal(accepted.status, 'TASK_STATUS_ACCEPTED');
    assert.match(accepted.task_id, UUID_V7);

    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
    assert.deepEqual(
      task.steps.map((step: Message) => [step.step_number, step.type, step.outcome, step.plan_step_id]),
      [
        [1, 'STEP_TYPE_PLAN', 'STEP_OUTCOME_SUCCESS', ''],
        [2, 'STEP_TYPE_RETRIEVE', 'STEP_OUTCOME_SUCCESS', 'alerts'],
        [3, 'STEP_TYPE_VERIFY', 'STEP_OUTCOME_SUCCESS', 'windy'],
        [4, 'STEP_TYPE_ACT', 'STEP_OUTCOME_SUCCESS', 'chart'],
      ],
    );
    const [, retrieve, verify, act] = task.steps;

    // The resource answer: only the abstract reached the planner; the body stayed on the data plane.
    const retrieveCall = retrieve.tool_calls[0];
    assert.equal(retrieveCall.status, 'TOOL_RESULT_STATUS_SUCCESS');
    assert.equal(retrieveCall.data_plane.mode, 'DATA_PLANE_MODE_ASYNC');
    assert.match(
      retrieveCall.data_plane.resource_url,
      /\/s2sp\/data\/<redacted>$/,
      'the capability is not handed out in task records',
    );
    assert.equal(n(retrieveCall.data_plane.total_rows), 14);
    const retrievePayload = fromStruct(retrieve.payload) as {
      abstract_preview: Array<Record<string, unknown>>;
      body_domains: string[];
    };
    assert.ok(
      retrievePayload.abstract_preview.every((row) => Object.keys(row).every((key) => ABSTRACT_COLUMNS.includes(key))),
    );
    assert.ok(retrievePayload.body_domains.includes('description'));
    assert.equal((fromStruct(verify.payload) as { matched_rows: number }).matched_rows, 4);
    assert.match(act.summary, /Charted 4 rows by urgency/);

    // Token accounting: per step and in total; S2SP kept more out than it let in.
    const inContext = n(task.usage.tokens_in_context);
    const keptOut = n(task.usage.tokens_kept_out);
    assert.ok(inContext > 0);
    assert.ok(keptOut > inContext, `kept out ${keptOut} > in context ${inContext}`);
    assert.equal(
      inContext,
      task.steps.reduce((sum: number, step: Message) => sum + n(step.usage.tokens_in_context), 0),
    );
    assert.equal(keptOut, n(retrieve.usage.tokens_kept_out));
    assert.ok(n(act.usage.tokens_in_context) > 0, 'the chart summary entered the context');
    assert.equal(n(task.usage.tool_calls), 2);

    // The result carries the consumer's answer (the chart), and the body never appears.
    const result = fromStruct(task.result) as { output: { content: Array<{ type: string; mimeType?: string }> } };
    assert.ok(result.output.content.some((block) => block.type === 'image' && block.mimeType === 'image/svg+xml'));
    assert.doesNotMatch(JSON.stringify(task.steps), /"description":"[^"]/, 'no body values in the step records');

    // The weather server issued one resource and the stats server consumed it.
    const resourcesAfter = await weatherResources();
    assert.equal(resourcesAfter.length, resourcesBefore.length + 1);
    assert.ok(
      resourcesAfter[resourcesAfter.length - 1].consumedAt,
      'the resource_url was fetched (consumed) by the consumer',
    );
  });

  test('sync task: the body comes from the agents’ buffer; nothing is cached on the weather server', async () => {
    const resourcesBefore = await weatherResources();
    const accepted = await submitTask(clients.agents, {
      plan: alertChartPlan('DATA_PLANE_MODE_SYNC', { group_by: 'how_urgent' }, { urgency: 'how_urgent' }),
    });
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
    const [, retrieve, , act] = task.steps;
    assert.equal(retrieve.tool_calls[0].data_plane.mode, 'DATA_PLANE_MODE_SYNC');
    assert.equal(retrieve.tool_calls[0].data_plane.resource_url, '');
    assert.match(
      act.summary,
      /Charted 4 rows by how_urgent/,
      'body columns reached the consumer, renamed by column_mapping',
    );
    assert.equal((fromStruct(act.payload) as { mode: string }).mode, 'sync');
    assert.ok(n(task.usage.tokens_kept_out) > n(task.usage.tokens_in_context));

    // The counts are of what a model would read, counted here independently: the retrieve step's
    // answer without its body (the same call, made directly), and the text the chart tool answered.
    const agent = await connectMcp(weather.url);
    const answer = jsonOf(
      await agent
        .callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event,severity', mode: 'sync' } })
        .finally(() => agent.close()),
    );
    const { body, ...controlPlane } = answer;
    assert.equal(n(retrieve.usage.tokens_in_context), o200kTokens(JSON.stringify(controlPlane)));
    assert.equal(n(retrieve.usage.tokens_kept_out), o200kTokens(JSON.stringify(body)));
    const result = fromStruct(task.result) as { output: { content: Array<{ type: string; text?: string }> } };
    const chartText = result.output.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('');
    assert.match(chartText, /^Charted 4 rows by how_urgent/);
    assert.equal(n(act.usage.tokens_in_context), o200kTokens(chartText));
    assert.equal(n(task.usage.tokens_in_context), o200kTokens(JSON.stringify(controlPlane)) + o200kTokens(chartText));
    assert.equal((await weatherResources()).length, resourcesBefore.length, 'sync mode caches nothing');
  });

  test('StreamTask streams every step in order and completes; a finished task is replayed', async () => {
    const accepted = await submitTask(clients.agents, { plan: alertChartPlan() });
    const live = await readStream(clients.agents.StreamTask({ task_id: accepted.task_id }));
    assert.deepEqual(
      live.map((step) => [step.step_number, step.type]),
      [
        [1, 'STEP_TYPE_PLAN'],
        [2, 'STEP_TYPE_RETRIEVE'],
        [3, 'STEP_TYPE_VERIFY'],
        [4, 'STEP_TYPE_ACT'],
      ],
    );
    assert.ok(live.every((step) => step.task_id === accepted.task_id && step.outcome === 'STEP_OUTCOME_SUCCESS'));
    const replay = await readStream(clients.agents.StreamTask({ task_id: accepted.task_id }));
    assert.deepEqual(
      replay.map((step) => step.summary),
      live.map((step) => step.summary),
    );

    await assert.rejects(
      readStream(clients.agents.StreamTask({ task_id: '0190a5b2-0000-7000-8000-000000000000' })),
      (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.NOT_FOUND);
        return true;
      },
    );
    await assert.rejects(
      readStream(clients.agents.StreamTask({ task_id: 'nope' })),
      (error: grpc.ServiceError) => error.code === grpc.status.INVALID_ARGUMENT,
    );
  });

  test('a StreamTask client that goes away leaves no listener behind', async () => {
    const runtime = agents.app.get(TaskRuntime);
    const accepted = await submitTask(clients.agents, {
      plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', 10_000)],
    });
    const call = clients.agents.StreamTask({ task_id: accepted.task_id }) as grpc.ClientReadableStream<Message>;
    const received: Message[] = [];
    call.on('data', (step: Message) => received.push(step));
    call.on('error', () => undefined);
    await eventually('two streamed steps', () => received.length >= 2);
    assert.equal(runtime.subscriberCount(accepted.task_id), 1);
    call.cancel();
    await eventually('the listener to be removed', () => runtime.subscriberCount(accepted.task_id) === 0);
    await unary(clients.agents, 'CancelTask', { task_id: accepted.task_id, mode: 'CANCEL_MODE_HARD' });
  });

  test('soft cancel: the running step finishes, the next never starts → CANCELLED', async () => {
    const accepted = await submitTask(clients.agents, {
      plan: [
        resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }),
        slowSink('first', 'alerts', 1_500),
        slowSink('second', 'alerts', 1_500),
      ],
    });
    await waitForSteps(clients.agents, accepted.task_id, 2);
    const cancelled = await unary(clients.agents, 'CancelTask', {
      task_id: accepted.task_id,
      mode: 'CANCEL_MODE_SOFT',
      reason: 'plan obsolete',
    });
    assert.equal(cancelled.status, 'TASK_STATUS_CANCELLING');
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_CANCELLED');
    assert.deepEqual(
      task.steps.map((step: Message) => [step.plan_step_id, step.outcome]),
      [
        ['', 'STEP_OUTCOME_SUCCESS'],
        ['alerts', 'STEP_OUTCOME_SUCCESS'],
        ['first', 'STEP_OUTCOME_SUCCESS'],
      ],
    );
    assert.match(task.steps[2].summary, /consumed 14 rows \(14 body rows\)/);
    assert.equal(task.error.code, 1005);
    assert.match(task.error.message, /plan obsolete/);

    const again = await unaryError(clients.agents, 'CancelTask', { task_id: accepted.task_id });
    assert.equal(again.code, grpc.status.FAILED_PRECONDITION);
    assert.match(again.details, /already ended CANCELLED/);
  });

  test('a consumer step of an async resource tells the consumer the row count of the resource (s2sp/total_rows), so it can fetch every row without naming them', async () => {
    const accepted = await submitTask(clients.agents, {
      plan: [resourceStep('alerts'), slowSink('sink', 'alerts', 0)],
    });
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
    assert.match(task.steps[2].summary, /consumed 14 rows \(no body\) after 0 ms; _meta s2sp\/total_rows 14/);

    const synchronous = await waitForTaskEnd(
      clients.agents,
      (
        await submitTask(clients.agents, {
          plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', 0)],
        })
      ).task_id,
    );
    assert.match(
      synchronous.steps[2].summary,
      /consumed 14 rows \(14 body rows\) after 0 ms$/,
      'a sync body is handed over whole: no row count to send',
    );
  });

  test('hard cancel: the in-flight MCP call is aborted → CANCELLED at once', async () => {
    const SLOW_MS = 20_000;
    const slowCallsBefore = testkit.slowConsumerCallsStarted();
    const accepted = await submitTask(clients.agents, {
      plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', SLOW_MS)],
    });
    await waitForSteps(clients.agents, accepted.task_id, 2);
    await eventually('the slow tool to be running', () => testkit.slowConsumerCallsStarted() > slowCallsBefore);
    const started = Date.now();
    const cancelled = await unary(clients.agents, 'CancelTask', {
      task_id: accepted.task_id,
      mode: 'CANCEL_MODE_HARD',
      reason: 'user left',
    });
    assert.equal(cancelled.status, 'TASK_STATUS_CANCELLED');
    assert.ok(Date.now() - started < SLOW_MS, 'did not wait for the slow tool');
    const task = await getTask(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_CANCELLED');
    const last = task.steps[task.steps.length - 1];
    assert.equal(last.plan_step_id, 'sink');
    assert.equal(last.outcome, 'STEP_OUTCOME_FAILURE');
    assert.equal(last.tool_calls[0].status, 'TOOL_RESULT_STATUS_ERROR');
    assert.match(last.error.message, /cancelled/);
    assert.equal(task.error.code, 1005);
  });

  test('the task deadline bounds its MCP calls: FAILED with DEADLINE_EXCEEDED (hop mcp)', async () => {
    const accepted = await submitTask(clients.agents, {
      plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', 20_000)],
      deadline: toTimestamp(Date.now() + 5_000),
    });
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_FAILED');
    assert.equal(task.error.code, 1006);
    assert.deepEqual(fromStruct(task.error.details), { hop: 'mcp' });
    assert.equal(task.steps[task.steps.length - 1].tool_calls[0].status, 'TOOL_RESULT_STATUS_TIMEOUT');

    // Without task.deadline, the SubmitTask call's own gRPC deadline bounds the task the same way.
    const bounded = await unary(
      clients.agents,
      'SubmitTask',
      {
        task: { plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', 20_000)] },
      },
      { deadlineMs: 5_000 },
    );
    const boundedTask = await waitForTaskEnd(clients.agents, bounded.task_id);
    assert.equal(boundedTask.status, 'TASK_STATUS_FAILED');
    assert.equal(boundedTask.error.code, 1006);
    assert.deepEqual(fromStruct(boundedTask.error.details), { hop: 'mcp' });
  });

  test('a task.deadline is the task’s own: a short SubmitTask call does not cut a longer task short', async () => {
    const accepted = await unary(
      clients.agents,
      'SubmitTask',
      {
        task: {
          plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), slowSink('sink', 'alerts', 2_500)],
          deadline: toTimestamp(Date.now() + 60_000),
        },
      },
      { deadlineMs: 1_000 },
    );
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));
  });

  test('constraints: token_budget, max_steps and permitted_tools stop the task with clear errors', async () => {
    const overBudget = await waitForTaskEnd(
      clients.agents,
      (await submitTask(clients.agents, { plan: alertChartPlan(), constraints: { token_budget: 20 } })).task_id,
    );
    assert.equal(overBudget.status, 'TASK_STATUS_FAILED');
    assert.equal(overBudget.error.code, 1007);
    assert.match(overBudget.error.message, /token_budget 20/);
    assert.equal(overBudget.error.recovery_hint, 'REDUCE_ABSTRACT_DOMAINS');
    assert.equal(overBudget.steps[1].outcome, 'STEP_OUTCOME_FAILURE');
    assert.ok(n(overBudget.steps[1].usage.tokens_in_context) > 20);

    const tooManySteps = await waitForTaskEnd(
      clients.agents,
      (await submitTask(clients.agents, { plan: alertChartPlan(), constraints: { max_steps: 2 } })).task_id,
    );
    assert.equal(tooManySteps.status, 'TASK_STATUS_FAILED');
    assert.equal(tooManySteps.error.code, 1001);
    assert.equal(tooManySteps.steps.length, 3, 'PLAN + 2 steps');

    const notPermitted = await waitForTaskEnd(
      clients.agents,
      (
        await submitTask(clients.agents, {
          plan: alertChartPlan(),
          constraints: { permitted_tools: ['weather/get_alerts'] },
        })
      ).task_id,
    );
    assert.equal(notPermitted.status, 'TASK_STATUS_FAILED');
    assert.equal(notPermitted.error.code, 1004);
    assert.match(notPermitted.error.message, /draw_chart.*permitted_tools/);
  });

  test('a tool error fails the task with TOOL_FAILURE and the tool’s message', async () => {
    const task = await waitForTaskEnd(
      clients.agents,
      (
        await submitTask(clients.agents, {
          plan: alertChartPlan('DATA_PLANE_MODE_ASYNC', { group_by: 'no_such_column' }),
        })
      ).task_id,
    );
    assert.equal(task.status, 'TASK_STATUS_FAILED');
    assert.equal(task.error.code, 1002);
    assert.match(task.error.message, /draw_chart on "stats" failed: No row has a column "no_such_column"/);
    assert.equal(task.steps[3].tool_calls[0].status, 'TOOL_RESULT_STATUS_ERROR');
  });

  test('SubmitTask validation: INVALID_ARGUMENT naming the field, ALREADY_EXISTS, DEADLINE_EXCEEDED', async () => {
    const invalid: Array<[Message, RegExp]> = [
      [{ plan: [] }, /^task\.plan: must have at least one step/],
      [{ plan: [{ step_id: 'a' }] }, /^task\.plan\[0\]: set exactly one of/],
      [{ plan: [resourceStep('a'), resourceStep('a')] }, /^task\.plan\[1\]\.step_id: "a" is used by an earlier step/],
      [
        { plan: [filterStep('f', 'later'), resourceStep('later')] },
        /^task\.plan\[0\]\.filter\.input_step_id: "later" is not an earlier step/,
      ],
      [
        { plan: [resourceStep('a'), filterStep('f', 'a', { field: 'event', op: 'like', value: 'x' })] },
        /^task\.plan\[1\]\.filter\.predicate: \$\.op: must be one of/,
      ],
      [
        {
          plan: [
            resourceStep('a'),
            { ...consumerStep('c', 'a'), consumer_call: { ...consumerStep('c', 'a').consumer_call, server: 'mars' } },
          ],
        },
        /^task\.plan\[1\]\.consumer_call\.server: no MCP server "mars"/,
      ],
      [{ plan: [resourceStep('a'), consumerStep('c1', 'a'), consumerStep('c2', 'a')] }, /single-use/],
      [
        { plan: [{ step_id: 'a', resource_call: { tool: 'get_alerts', abstract_domains: [] } }] },
        /abstract_domains: must name at least one column/,
      ],
      [
        {
          plan: [
            {
              step_id: 'a',
              resource_call: { tool: 'get_alerts', abstract_domains: ['event'], arguments: toStruct({ mode: 'sync' }) },
            },
          ],
        },
        /arguments: must not contain mode/,
      ],
    ];
    for (const [task, message] of invalid) {
      const error = await unaryError(clients.agents, 'SubmitTask', { task });
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, message.source);
      assert.match(error.details, message);
    }
    const noTask = await unaryError(clients.agents, 'SubmitTask', {});
    assert.match(noTask.details, /^task: is required/);

    const taskId = '0190a5b2-1c3d-7e4f-8a5b-6c7d8e9f0a1b';
    const accepted = await submitTask(clients.agents, { task_id: taskId, plan: [resourceStep('a')] });
    assert.equal(accepted.task_id, taskId);
    const duplicate = await unaryError(clients.agents, 'SubmitTask', {
      task: { task_id: taskId, plan: [resourceStep('a')] },
    });
    assert.equal(duplicate.code, grpc.status.ALREADY_EXISTS);
    assert.equal((await waitForTaskEnd(clients.agents, taskId)).status, 'TASK_STATUS_SUCCEEDED');

    const renamed = await submitTask(clients.agents, { task_id: 'my-own-id', plan: [resourceStep('a')] });
    assert.match(renamed.task_id, UUID_V7);

    const late = await unaryError(clients.agents, 'SubmitTask', {
      task: { plan: [resourceStep('a')], deadline: toTimestamp(Date.now() - 1_000) },
    });
    assert.equal(late.code, grpc.status.DEADLINE_EXCEEDED);
    assert.equal(trailer(late, GRPC_ERROR_METADATA.DEADLINE_HOP), 'agents');
  });

  test('GetTask and CancelTask: NOT_FOUND for unknown tasks, INVALID_ARGUMENT for malformed ids', async () => {
    const unknown = await unaryError(clients.agents, 'GetTask', { task_id: '0190a5b2-0000-7000-8000-00000000abcd' });
    assert.equal(unknown.code, grpc.status.NOT_FOUND);
    const malformed = await unaryError(clients.agents, 'GetTask', { task_id: 'abc' });
    assert.equal(malformed.code, grpc.status.INVALID_ARGUMENT);
    assert.match(malformed.details, /^task_id: must be a UUID/);
    const cancelUnknown = await unaryError(clients.agents, 'CancelTask', {
      task_id: '0190a5b2-0000-7000-8000-00000000abcd',
      mode: 'CANCEL_MODE_HARD',
    });
    assert.equal(cancelUnknown.code, grpc.status.NOT_FOUND);
  });
});
