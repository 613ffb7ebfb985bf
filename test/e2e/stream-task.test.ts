import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { TaskRuntime } from '../../libs/agents/src/tasks/task-runtime.service';
import { eventually } from '../support/agents-stack';
import { slowPlan, startPlatformStack, type PlatformStack } from '../support/platform-stack';
import { readSse } from '../support/sse';
import { README_PLAN } from '../support/readme-task';
import { ALL_TEST_SCOPES, bearerFor } from '../support/tokens';

/** agent.streamTask: a task's progress as Server-Sent Events on POST /rpc, every hop real. */
describe('agent.streamTask over Server-Sent Events', () => {
  let stack: PlatformStack;
  let authorization: string;

  before(async () => {
    stack = await startPlatformStack();
    authorization = await bearerFor({ audience: 'gateway', subject: 'streamer', scopes: ALL_TEST_SCOPES });
  });
  after(async () => stack?.close());

  function post(
    method: string,
    params: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<Response> {
    return fetch(`${stack.gateway.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
      signal,
    });
  }

  async function submit(plan: unknown[]): Promise<string> {
    const body = (await (await post('agent.submitTask', { objective: 'stream test', plan })).json()) as {
      result: { task_id: string };
    };
    return body.result.task_id;
  }

  test("the README's task: a first snapshot, each step as it is taken, a last snapshot that says succeeded", async () => {
    const taskId = await submit(README_PLAN);
    const response = await post('agent.streamTask', { task_id: taskId }, { accept: 'text/event-stream' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const events = await readSse(response);
    for (const event of events) assert.deepEqual([event.data.jsonrpc, event.data.id], ['2.0', 7]);
    assert.equal(events[0].event, 'snapshot');
    assert.equal(events[0].data.result.task_id, taskId);
    const last = events.at(-1)!;
    assert.equal(last.event, 'snapshot');
    assert.equal(last.data.result.status, 'succeeded');
    assert.ok(last.data.result.usage.tokens_kept_out > 0, 'the finished task counts the tokens S2SP kept out');
    // The planner's own steps have no plan_step_id.
    const steps = events
      .filter((event) => event.event === 'step' && event.data.result.plan_step_id)
      .map((event) => event.data.result.plan_step_id);
    assert.deepEqual([...new Set(steps)], ['alerts', 'wind', 'chart']);
  });

  test('a caller without tasks:read gets a plain JSON-RPC refusal naming the scope, not a stream', async () => {
    const taskId = await submit(README_PLAN);
    const reader = await bearerFor({
      audience: 'gateway',
      subject: 'streamer',
      scopes: ALL_TEST_SCOPES.filter((scope) => scope !== 'tasks:read'),
    });
    const response = await post(
      'agent.streamTask',
      { task_id: taskId },
      { accept: 'text/event-stream', authorization: reader },
    );
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { error: { code: number; data: { missing_scopes: string[] } } };
    assert.equal(body.error.code, 4002);
    assert.deepEqual(body.error.data.missing_scopes, ['tasks:read']);
  });

  test("someone else's task is not found, as a plain JSON-RPC error", async () => {
    const taskId = await submit(README_PLAN);
    const other = await bearerFor({ audience: 'gateway', subject: 'someone-else', scopes: ALL_TEST_SCOPES });
    const response = await post(
      'agent.streamTask',
      { task_id: taskId },
      { accept: 'text/event-stream', authorization: other },
    );
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await response.json()) as { error: { code: number; message: string } };
    assert.ok(body.error, 'an error, not a stream');
    assert.doesNotMatch(body.error.message, /streamer/);
  });

  test('without Accept: text/event-stream, or in a batch, the call is an Invalid Request saying why', async () => {
    const taskId = await submit(README_PLAN);
    const plain = (await (await post('agent.streamTask', { task_id: taskId })).json()) as {
      error: { code: number; message: string };
    };
    assert.equal(plain.error.code, -32600);
    assert.match(plain.error.message, /Accept: text\/event-stream/);

    const batch = await fetch(`${stack.gateway.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'agent.streamTask', params: { task_id: taskId } }]),
    });
    const [answer] = (await batch.json()) as Array<{ error: { code: number; message: string } }>;
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /batch/);
  });

  test('a client that goes away stops the stream to the agents', async () => {
    const submittedAt = Date.now();
    const taskId = await submit(slowPlan(25_000));
    const runtime = stack.agents.app.get(TaskRuntime);
    // node:http, not fetch: an aborted fetch leaves its connection to the server busy, and closing the gateway would wait for it.
    const request = httpRequest(`${stack.gateway.url}/rpc`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
    });
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent.streamTask', params: { task_id: taskId } }));
    await new Promise<void>((resolve, reject) => {
      request.on('error', reject);
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('event: step')) resolve();
        });
      });
    });
    await eventually('the agents to have a listener', () => runtime.subscriberCount(taskId) === 1);
    request.destroy();
    // Well before the slow step ends (when the task itself would drop its listeners).
    await eventually('the listener gone', () => runtime.subscriberCount(taskId) === 0, 5_000);
    assert.equal(runtime.subscriberCount(taskId), 0);
    assert.ok(Date.now() - submittedAt < 15_000, 'the listener went with the client, not with the task');
    await post('agent.cancelTask', { task_id: taskId, mode: 'hard' });
  });
});
