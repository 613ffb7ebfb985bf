import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { eventually } from '../support/eventually';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';
import { bearerFor } from '../support/tokens';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const TASK_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
const RESERVE_MS = 20;

describe('gateway -> agents gRPC calls: metadata, deadlines, cancellation, error mapping, batches', () => {
  let fake: FakeAgents;
  let gw: TestGateway;

  before(async () => {
    fake = await FakeAgents.start();
    // A breaker that never opens here: these tests provoke failures on purpose.
    gw = await startTestGateway(fake, {
      circuitBreaker: { minimumCalls: 10_000 },
      grpc: { deadlineReserveMs: RESERVE_MS, minimumBudgetMs: 20 },
      jsonRpc: { defaultDeadlineMs: 30_000, maxDeadlineMs: 60_000 },
    });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });
  beforeEach(() => fake.reset());

  test('traceparent, tracestate and the caller id travel as gRPC metadata', async () => {
    await gw.client.request('tools.list', {}, { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE' });
    const [call] = fake.callsTo('ListTools');
    assert.equal(call.metadata['traceparent'], TRACEPARENT);
    assert.equal(call.metadata['tracestate'], 'congo=t61rcWkgMzE');
    assert.equal(call.metadata['x-caller'], 'test-user');
  });

  test('a malformed traceparent is not forwarded: the call goes on in a trace of its own', async () => {
    await gw.client.request('tools.list', {}, { traceparent: 'garbage', tracestate: 'a=b' });
    const [call] = fake.callsTo('ListTools');
    assert.match(String(call.metadata['traceparent']), /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    assert.equal(call.metadata['tracestate'], undefined);
    assert.equal(call.metadata['x-caller'], 'test-user');
  });

  test('the gRPC deadline the agents receive is the remaining JSON-RPC budget', async () => {
    const budget = 3_000;
    const sentAt = Date.now();
    await gw.client.request('tools.list', {}, { 'X-Deadline-Ms': String(sentAt + budget) });
    const { deadlineMs, receivedAt } = fake.callsTo('ListTools')[0];
    assert.ok(deadlineMs !== undefined);
    const remainingAtArrival = sentAt + budget - receivedAt;
    // Never more than the budget minus the reserve, and within a few ms of what was left on arrival.
    assert.ok(deadlineMs <= budget - RESERVE_MS + 1, `deadline ${deadlineMs} vs budget ${budget}`);
    assert.ok(
      deadlineMs >= remainingAtArrival - RESERVE_MS - 100,
      `deadline ${deadlineMs} vs remaining ${remainingAtArrival}`,
    );

    // params.deadline_ms works the same way (and never reaches the agents as a field)
    const paramsDeadline = Date.now() + 1_500;
    await gw.client.request('agent.getTask', { task_id: TASK_ID, deadline_ms: paramsDeadline });
    const getTask = fake.callsTo('GetTask')[0];
    assert.deepEqual(getTask.request, { task_id: TASK_ID });
    assert.ok(getTask.deadlineMs! <= 1_500 - RESERVE_MS + 1, String(getTask.deadlineMs));
    assert.ok(
      getTask.deadlineMs! >= paramsDeadline - getTask.receivedAt - RESERVE_MS - 100,
      String(getTask.deadlineMs),
    );

    // no deadline at all: the gateway's default (30 s)
    await gw.client.request('agent.getTask', { task_id: TASK_ID });
    const defaulted = fake.callsTo('GetTask')[1].deadlineMs!;
    assert.ok(defaulted > 29_000 && defaulted <= 30_000 - RESERVE_MS + 1, String(defaulted));
  });

  test('agents slower than X-Deadline-Ms: -32000 at hop "grpc", and the agents saw a deadline within the budget', async () => {
    // The agents would answer only after AGENTS_DELAY_MS (or when the call is cancelled).
    const AGENTS_DELAY_MS = 30_000;
    fake.delay('InvokeTool', AGENTS_DELAY_MS);
    const budget = 500;
    const sentAt = Date.now();
    const error = await rpcError(
      gw.client.request(
        'tools.call',
        { name: 'get_alerts' },
        { 'X-Deadline-Ms': String(sentAt + budget), traceparent: TRACEPARENT },
      ),
    );
    const elapsed = Date.now() - sentAt;
    assert.equal(error.code, -32000);
    assert.equal(error.message, 'Deadline exceeded');
    assert.equal(error.data.hop, 'grpc');
    assert.equal(error.data.trace_id, TRACE_ID);
    assert.equal(error.data.recovery_hint, 'RETRY_WITH_LONGER_DEADLINE');
    assert.ok(elapsed >= budget - RESERVE_MS - 10, `answered after ${elapsed} ms, before the deadline`);
    assert.ok(elapsed < AGENTS_DELAY_MS, `answered after ${elapsed} ms, not when the agents did`);
    const [call] = fake.callsTo('InvokeTool');
    assert.ok(call.deadlineMs! <= budget, `gRPC deadline ${call.deadlineMs} > budget ${budget}`);
    // The agents see the call end at its deadline (the cancellation reaches them after the answer).
    await eventually('the agents to see the call cancelled', () => call.cancelled);
  });

  test('a budget too small to be useful is refused before any gRPC call', async () => {
    const error = await rpcError(gw.client.request('tools.list', {}, { 'X-Deadline-Ms': String(Date.now() + 25) }));
    assert.equal(error.code, -32000);
    // Where it runs out depends on how long authentication took; never past the gateway.
    assert.ok(['gateway.dispatch', 'gateway.admission', 'gateway.handler'].includes(error.data.hop), error.data.hop);
    assert.equal(fake.callsTo('ListTools').length, 0);
  });

  test('a DEADLINE_EXCEEDED from further down keeps the hop the agents name', async () => {
    fake.fail('InvokeTool', GrpcStatus.DEADLINE_EXCEEDED, 'MCP server too slow', { 'x-s2sp-deadline-hop': 'mcp' });
    const error = await rpcError(gw.client.request('tools.call', { name: 'get_alerts' }));
    assert.equal(error.code, -32000);
    assert.equal(error.data.hop, 'mcp');
  });

  test('a client that goes away cancels the gRPC call', async () => {
    fake.delay('GetTask', 5_000);
    const abort = new AbortController();
    const authorization = await bearerFor({ audience: 'gateway' });
    const request = fetch(gw.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'agent.getTask', params: { task_id: TASK_ID }, id: 1 }),
      signal: abort.signal,
    }).catch(() => undefined);
    await eventually('the agents to receive GetTask', () => fake.callsTo('GetTask').length === 1);
    abort.abort();
    await request;
    await eventually('the agents to see GetTask cancelled', () => fake.callsTo('GetTask')[0].cancelled);
  });

  const mappings: Array<{
    name: string;
    code: GrpcStatus;
    details?: string;
    trailers?: Record<string, string>;
    expect: { code: number; message?: string; data: Record<string, unknown> };
  }> = [
    {
      name: 'INVALID_ARGUMENT -> -32602 with the reason',
      code: GrpcStatus.INVALID_ARGUMENT,
      details: 'plan step "chart" reads unknown step "wnd"',
      expect: {
        code: -32602,
        message: 'Invalid params',
        data: { reason: 'plan step "chart" reads unknown step "wnd"', trace_id: TRACE_ID },
      },
    },
    {
      name: 'UNAUTHENTICATED -> 4001',
      code: GrpcStatus.UNAUTHENTICATED,
      details: 'token expired',
      expect: { code: 4001, data: { reason: 'token expired', recovery_hint: 'AUTHENTICATE', trace_id: TRACE_ID } },
    },
    {
      name: 'PERMISSION_DENIED -> 4002',
      code: GrpcStatus.PERMISSION_DENIED,
      details: 'tools:call',
      expect: {
        code: 4002,
        data: { reason: 'tools:call', recovery_hint: 'REQUEST_ADDITIONAL_SCOPE', trace_id: TRACE_ID },
      },
    },
    {
      name: 'PERMISSION_DENIED + x-s2sp-error-code 4003 -> approval required',
      code: GrpcStatus.PERMISSION_DENIED,
      details: 'destructive tool',
      trailers: { 'x-s2sp-error-code': '4003' },
      expect: { code: 4003, data: { reason: 'destructive tool', recovery_hint: 'AWAIT_APPROVAL', trace_id: TRACE_ID } },
    },
    {
      name: 'RESOURCE_EXHAUSTED + retry-after -> 5001 with retry_after',
      code: GrpcStatus.RESOURCE_EXHAUSTED,
      details: 'token budget',
      trailers: { 'retry-after': '7' },
      expect: {
        code: 5001,
        data: { retry_after: 7, reason: 'token budget', recovery_hint: 'RETRY_AFTER', trace_id: TRACE_ID },
      },
    },
    {
      name: 'UNAVAILABLE -> -32001',
      code: GrpcStatus.UNAVAILABLE,
      details: 'MCP server weather unreachable at 10.0.0.5',
      expect: {
        code: -32001,
        message: 'Upstream service unavailable',
        data: { recovery_hint: 'RETRY_WITH_BACKOFF', trace_id: TRACE_ID },
      },
    },
    {
      name: 'ABORTED -> 1005 with the agent message',
      code: GrpcStatus.ABORTED,
      details: 'task cancelled while running',
      expect: {
        code: 1005,
        message: 'task cancelled while running',
        data: { recovery_hint: 'RETRY_WITH_BACKOFF', trace_id: TRACE_ID },
      },
    },
    {
      name: 'INTERNAL -> -32603 without the details',
      code: GrpcStatus.INTERNAL,
      details: 'secret: postgres://admin:hunter2@10.0.0.5 refused',
      expect: { code: -32603, message: 'Internal error', data: { trace_id: TRACE_ID } },
    },
    {
      name: 'a trace id from the agents trailer wins',
      code: GrpcStatus.UNAVAILABLE,
      trailers: { 'x-trace-id': 'agents-trace-1', 'x-s2sp-recovery-hint': 'CONTACT_SUPPORT' },
      expect: { code: -32001, data: { recovery_hint: 'CONTACT_SUPPORT', trace_id: 'agents-trace-1' } },
    },
  ];

  for (const mapping of mappings) {
    test(`gRPC status mapping: ${mapping.name}`, async () => {
      fake.fail('CancelTask', mapping.code, mapping.details ?? '', mapping.trailers ?? {});
      const { json } = await gw.post(
        { jsonrpc: '2.0', method: 'agent.cancelTask', params: { task_id: TASK_ID, mode: 'soft' }, id: 'req-1' },
        { traceparent: TRACEPARENT },
      );
      assert.equal(json.id, 'req-1');
      assert.equal(json.error.code, mapping.expect.code);
      if (mapping.expect.message) assert.equal(json.error.message, mapping.expect.message);
      assert.deepEqual(json.error.data, mapping.expect.data);
      assert.equal(JSON.stringify(json).includes('hunter2'), false);
    });
  }

  test('a batch across real methods answers each call on its own: partial success, order kept, notifications silent', async () => {
    fake.fail('GetTask', GrpcStatus.NOT_FOUND, `no task ${TASK_ID}`);
    fake.delay('ListTools', 100);
    const { status, json } = await gw.post([
      { jsonrpc: '2.0', method: 'tools.list', params: { server: 'weather' }, id: 1 },
      { jsonrpc: '2.0', method: 'tools.call', params: { name: 'echo', arguments: { n: 1 } }, id: 2 },
      { jsonrpc: '2.0', method: 'agent.getTask', params: { task_id: TASK_ID }, id: 3 },
      { jsonrpc: '2.0', method: 'agent.submitTask', params: { objective: 'x', plan: [{ step_id: 'a' }] }, id: 4 },
      { jsonrpc: '2.0', method: 'agent.cancelTask', params: { task_id: TASK_ID, mode: 'hard' }, id: 5 },
      { jsonrpc: '2.0', method: 'tools.nope', id: 6 },
      { jsonrpc: '2.0', method: 'tools.call', params: { name: 'echo' } },
    ]);
    assert.equal(status, 200);
    assert.deepEqual(
      json.map((response: { id: number }) => response.id),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      json[0].result.tools.map((tool: { name: string }) => tool.name),
      ['get_alerts'],
    );
    assert.deepEqual(json[1].result.structuredContent.arguments, { n: 1 });
    assert.equal(json[2].error.code, -32602);
    assert.equal(json[3].error.code, -32602);
    assert.equal(json[3].error.data.fields[0].path, 'plan[0].resource_call');
    assert.deepEqual(json[4].result, { task_id: TASK_ID, status: 'cancelled' });
    assert.equal(json[5].error.code, -32601);
    await eventually('the notification to run too', () => fake.callsTo('InvokeTool').length === 2);
  });

  test('a batch shares one deadline: a slow call times out while the others succeed', async () => {
    fake.delay('GetTask', 3_000);
    const { json } = await gw.post(
      [
        { jsonrpc: '2.0', method: 'agent.getTask', params: { task_id: TASK_ID }, id: 'slow' },
        { jsonrpc: '2.0', method: 'tools.list', params: {}, id: 'fast' },
      ],
      { 'X-Deadline-Ms': String(Date.now() + 1_000) },
    );
    assert.equal(json[0].id, 'slow');
    assert.equal(json[0].error.code, -32000);
    assert.equal(json[0].error.data.hop, 'grpc');
    assert.equal(json[1].id, 'fast');
    assert.equal(json[1].result.tools.length, 3);
  });
});
