import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const HEADERS = { traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` };

describe('error responses', () => {
  let server: TestApp;
  before(async () => (server = await startTestApp()));
  after(async () => server.close());

  const call = async (method: string, id: unknown = 1) =>
    (await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', method, id }), HEADERS)).json as any;

  test('an unexpected exception is -32603 with nothing of its own', async () => {
    for (const method of ['explode', 'explode.async']) {
      const reply = await call(method);
      assert.deepEqual(reply, {
        jsonrpc: '2.0',
        error: { code: -32603, message: 'Internal error', data: { trace_id: TRACE_ID } },
        id: 1,
      });
    }
  });

  test('a thrown JsonRpcError keeps code, message and data, plus trace_id', async () => {
    const reply = await call('fail.recursion', 'req-001');
    assert.deepEqual(reply, {
      jsonrpc: '2.0',
      error: {
        code: 1003,
        message: 'Agent recursion depth exceeded',
        data: {
          max_depth: 8,
          current_depth: 9,
          agent_id: 'planner-v2',
          trace_id: TRACE_ID,
          recovery_hint: 'REDUCE_DECOMPOSITION_GRANULARITY',
        },
      },
      id: 'req-001',
    });
  });

  test('rate limiting carries retry_after and a recovery hint', async () => {
    const { error } = await call('fail.rate');
    assert.equal(error.code, 5001);
    assert.equal(error.data.retry_after, 30);
    assert.equal(error.data.recovery_hint, 'RETRY_AFTER');
  });

  test('a gRPC error from a handler is mapped, without leaking its details', async () => {
    const { error } = await call('fail.grpc.unavailable');
    assert.deepEqual(error, {
      code: -32001,
      message: 'Upstream service unavailable',
      data: { recovery_hint: 'RETRY_WITH_BACKOFF', trace_id: TRACE_ID },
    });
  });

  test('a guard that refuses gives 4002 without running the handler', async () => {
    const { error } = await call('guarded');
    assert.equal(error.code, 4002);
    assert.equal(error.data.recovery_hint, 'REQUEST_ADDITIONAL_SCOPE');
  });

  test('a Nest HttpException keeps its meaning', async () => {
    const { error } = await call('forbidden.http');
    assert.equal(error.code, 4002);
    assert.equal(error.data.reason, 'missing scope tasks:write');
  });

  test('no response ever carries a stack trace or internal detail', async () => {
    const bodies = [
      ...['explode', 'explode.async', 'fail.grpc.unavailable', 'unserializable', 'guarded', 'missing'].map((method) =>
        JSON.stringify({ jsonrpc: '2.0', method, id: 1 }),
      ),
      '{"jsonrpc":"2.0","method":"subtract","params":{"minuend":{"deep":[1]}},"id":1}',
      '{broken',
      JSON.stringify([
        { jsonrpc: '2.0', method: 'explode', id: 1 },
        { jsonrpc: '2.0', method: 'explode.async', id: 2 },
      ]),
    ];
    for (const body of bodies) {
      const { text } = await postRaw(server.url, body);
      for (const leak of [
        /\bat .+\(.+:\d+:\d+\)/,
        /\.js:\d+/,
        /node_modules/,
        /hunter2/,
        /postgres:/,
        /ECONNREFUSED/,
        /TypeError/,
        /password/,
        /stack/i,
      ]) {
        assert.doesNotMatch(text, leak, `${body} -> ${text}`);
      }
    }
  });
});
