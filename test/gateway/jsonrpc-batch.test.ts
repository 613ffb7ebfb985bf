import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

type Response = { id: unknown; result?: unknown; error?: { code: number; message: string; data?: any } };

const call = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: '2.0', method, params, id });

describe('JSON-RPC batches', () => {
  let server: TestApp;
  before(async () => (server = await startTestApp({ maxBatchSize: 10, batchConcurrency: 3 })));
  after(async () => server.close());
  beforeEach(() => server.probe.reset());

  test('responses keep request order even when later calls finish first, with partial success', async () => {
    const batch = [
      call('a', 'slow', { ms: 150, tag: 'a' }),
      call('b', 'slow', { ms: 10, tag: 'b' }),
      { jsonrpc: '2.0', method: 'notify_hello', params: [7] },
      call('c', 'explode'),
      call('d', 'slow', { ms: 60, tag: 'd' }),
      call('e', 'subtract', { minuend: 'x', subtrahend: 1 }),
      call('f', 'nope'),
      call('g', 'slow', { ms: 1, tag: 'g' }),
    ];
    const reply = await postRaw(server.url, JSON.stringify(batch));
    const responses = reply.json as Response[];
    assert.deepEqual(
      responses.map((response) => response.id),
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
    );
    assert.equal(responses[0].result, 'a');
    assert.equal(responses[1].result, 'b');
    assert.equal(responses[2].error?.code, -32603);
    assert.equal(responses[3].result, 'd');
    assert.equal(responses[4].error?.code, -32602);
    assert.equal(responses[5].error?.code, -32601);
    assert.equal(responses[6].result, 'g');
    assert.deepEqual(server.probe.notifications, [{ method: 'notify_hello', params: [7] }]);
  });

  test('no more than batchConcurrency calls run at once, and the bound is used', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => call(i, 'slow', { ms: 40, tag: String(i) }));
    const started = Date.now();
    const reply = await postRaw(server.url, JSON.stringify(batch));
    const elapsed = Date.now() - started;
    assert.equal((reply.json as Response[]).length, 10);
    assert.equal(server.probe.maxInFlight, 3, 'the bound is reached, never passed');
    // ceil(10 / 3) = 4 waves of 40 ms. No upper bound: loaded CI machines make it flaky.
    assert.ok(elapsed >= 150, `elapsed ${elapsed} ms`);
  });

  test('a batch over maxBatchSize is one -32600 error naming the limit', async () => {
    const batch = Array.from({ length: 11 }, (_, i) => call(i, 'get_data'));
    const reply = await postRaw(server.url, JSON.stringify(batch));
    assert.equal(reply.status, 200);
    const response = reply.json as Response;
    assert.ok(!Array.isArray(response));
    assert.equal(response.id, null);
    assert.equal(response.error?.code, -32600);
    assert.match(response.error.message, /limit of 10/);
    assert.deepEqual(response.error?.data, { max_batch_size: 10, batch_size: 11 });
  });

  test('a batch of exactly maxBatchSize is served', async () => {
    const batch = Array.from({ length: 10 }, (_, i) => call(i, 'get_data'));
    const reply = await postRaw(server.url, JSON.stringify(batch));
    assert.equal((reply.json as Response[]).length, 10);
  });

  test('an empty batch is a single -32600 error', async () => {
    const reply = await postRaw(server.url, '[]');
    assert.deepEqual(reply.json, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null });
  });

  test('an all-notification batch answers 204 with an empty body, even when calls fail', async () => {
    const batch = [
      { jsonrpc: '2.0', method: 'notify_hello', params: [1] },
      { jsonrpc: '2.0', method: 'explode' },
      { jsonrpc: '2.0', method: 'missing' },
      { jsonrpc: '2.0', method: 'subtract', params: { minuend: 'x' } },
    ];
    const reply = await postRaw(server.url, JSON.stringify(batch));
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    assert.deepEqual(server.probe.notifications, [{ method: 'notify_hello', params: [1] }]);
  });

  test('invalid members of a batch get id null unless their id is readable', async () => {
    const batch = [
      { jsonrpc: '1.0', method: 'get_data', id: 7 },
      { jsonrpc: '2.0', method: 'get_data', id: { nested: true } },
      { jsonrpc: '2.0', method: 'get_data', id: [1] },
      { jsonrpc: '2.0', method: 'get_data', params: 3, id: 'p' },
      { jsonrpc: '2.0', method: 'get_data', params: null, id: 'q' },
      null,
      'text',
      call(null, 'get_data'),
    ];
    const responses = (await postRaw(server.url, JSON.stringify(batch))).json as Response[];
    assert.deepEqual(
      responses.map((response) => [response.id, response.error?.code ?? 'ok']),
      [
        [7, -32600],
        [null, -32600],
        [null, -32600],
        ['p', -32600],
        ['q', -32600],
        [null, -32600],
        [null, -32600],
        [null, 'ok'],
      ],
    );
  });

  test('one unserializable result fails only its own call', async () => {
    const reply = await postRaw(server.url, JSON.stringify([call(1, 'unserializable'), call(2, 'get_data')]));
    const responses = reply.json as Response[];
    assert.equal(responses[0].error?.code, -32603);
    assert.deepEqual(responses[1].result, ['hello', 5]);
  });
});
