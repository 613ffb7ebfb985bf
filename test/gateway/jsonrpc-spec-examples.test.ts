import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JSONRPCClient, JSONRPCErrorException, type JSONRPCResponse } from 'json-rpc-2.0';
import { HTTP_ADAPTERS, postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

/** The "Examples" section of https://www.jsonrpc.org/specification, byte for byte in, value for value out. */
const EXAMPLES: Array<{ name: string; request: string; response: unknown }> = [
  {
    name: 'rpc call with positional parameters (1)',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}',
    response: { jsonrpc: '2.0', result: 19, id: 1 },
  },
  {
    name: 'rpc call with positional parameters (2)',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}',
    response: { jsonrpc: '2.0', result: -19, id: 2 },
  },
  {
    name: 'rpc call with named parameters (1)',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}',
    response: { jsonrpc: '2.0', result: 19, id: 3 },
  },
  {
    name: 'rpc call with named parameters (2)',
    request: '{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}',
    response: { jsonrpc: '2.0', result: 19, id: 4 },
  },
  {
    name: 'a notification (1)',
    request: '{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}',
    response: undefined,
  },
  {
    name: 'a notification (2)',
    request: '{"jsonrpc": "2.0", "method": "foobar"}',
    response: undefined,
  },
  {
    name: 'rpc call of non-existent method',
    request: '{"jsonrpc": "2.0", "method": "foobar", "id": "1"}',
    response: { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: '1' },
  },
  {
    name: 'rpc call with invalid JSON',
    request: '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]',
    response: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
  },
  {
    name: 'rpc call with invalid Request object',
    request: '{"jsonrpc": "2.0", "method": 1, "params": "bar"}',
    response: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
  },
  {
    name: 'rpc call Batch, invalid JSON',
    request: `[
  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
  {"jsonrpc": "2.0", "method"
]`,
    response: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null },
  },
  {
    name: 'rpc call with an empty Array',
    request: '[]',
    response: { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
  },
  {
    name: 'rpc call with an invalid Batch (but not empty)',
    request: '[1]',
    response: [{ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null }],
  },
  {
    name: 'rpc call with invalid Batch',
    request: '[1,2,3]',
    response: [
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
    ],
  },
  {
    name: 'rpc call Batch',
    request: `[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]`,
    response: [
      { jsonrpc: '2.0', result: 7, id: '1' },
      { jsonrpc: '2.0', result: 19, id: '2' },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: '5' },
      { jsonrpc: '2.0', result: ['hello', 5], id: '9' },
    ],
  },
  {
    name: 'rpc call Batch (all notifications)',
    request: `[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]`,
    response: undefined,
  },
];

for (const adapter of HTTP_ADAPTERS)
  describe(`JSON-RPC 2.0 specification examples over HTTP on ${adapter}`, () => {
    let server: TestApp;
    before(async () => (server = await startTestApp({}, adapter)));
    after(async () => server.close());
    beforeEach(() => server.probe.reset());

    for (const example of EXAMPLES) {
      test(example.name, async () => {
        const reply = await postRaw(server.url, example.request);
        if (example.response === undefined) {
          assert.equal(reply.status, 204);
          assert.equal(reply.text, '');
        } else {
          assert.equal(reply.status, 200);
          assert.equal(reply.contentType, 'application/json');
          assert.deepEqual(reply.json, example.response);
        }
      });
    }

    test('notifications reach their handlers (and only they)', async () => {
      await postRaw(server.url, EXAMPLES.find((e) => e.name === 'a notification (1)')!.request);
      await postRaw(server.url, EXAMPLES.find((e) => e.name === 'rpc call Batch (all notifications)')!.request);
      assert.deepEqual(server.probe.notifications, [
        { method: 'update', params: [1, 2, 3, 4, 5] },
        { method: 'notify_sum', params: [1, 2, 4] },
        { method: 'notify_hello', params: [7] },
      ]);
    });
  });

describe('the same examples through the json-rpc-2.0 client library', () => {
  let server: TestApp;
  let client: JSONRPCClient;
  before(async () => {
    server = await startTestApp();
    client = new JSONRPCClient(async (payload) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      if (response.status === 200) client.receive((await response.json()) as JSONRPCResponse | JSONRPCResponse[]);
      else if (response.status !== 204) throw new Error(`HTTP ${response.status}`);
    });
  });
  after(async () => server.close());

  test('positional and named params', async () => {
    assert.equal(await client.request('subtract', [42, 23]), 19);
    assert.equal(await client.request('subtract', [23, 42]), -19);
    assert.equal(await client.request('subtract', { subtrahend: 23, minuend: 42 }), 19);
    assert.equal(await client.request('subtract', { minuend: 42, subtrahend: 23 }), 19);
  });

  test('notifications resolve without a response', async () => {
    server.probe.reset();
    // notify() does not expose the send promise; send() is the same call, awaitable.
    await client.send({ jsonrpc: '2.0', method: 'update', params: [1, 2, 3, 4, 5] });
    await client.send({ jsonrpc: '2.0', method: 'foobar' });
    assert.deepEqual(server.probe.notifications, [{ method: 'update', params: [1, 2, 3, 4, 5] }]);
  });

  test('a non-existent method rejects with -32601', async () => {
    await assert.rejects(Promise.resolve(client.request('foobar', undefined)), (error: unknown) => {
      assert.ok(error instanceof JSONRPCErrorException);
      assert.equal(error.code, -32601);
      assert.equal(error.message, 'Method not found');
      return true;
    });
  });

  test('a batch with partial success via requestAdvanced', async () => {
    const responses = await client.requestAdvanced([
      { jsonrpc: '2.0', method: 'sum', params: [1, 2, 4], id: '1' },
      { jsonrpc: '2.0', method: 'subtract', params: [42, 23], id: '2' },
      { jsonrpc: '2.0', method: 'foo.get', params: { name: 'myself' }, id: '5' },
      { jsonrpc: '2.0', method: 'get_data', id: '9' },
    ]);
    const byId = new Map(responses.map((response) => [response.id, response]));
    assert.equal(byId.get('1')?.result, 7);
    assert.equal(byId.get('2')?.result, 19);
    assert.equal(byId.get('5')?.error?.code, -32601);
    assert.deepEqual(byId.get('9')?.result, ['hello', 5]);
  });
});
