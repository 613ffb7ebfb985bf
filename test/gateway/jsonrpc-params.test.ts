import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

type ErrorReply = {
  error: {
    code: number;
    message: string;
    data: { fields: Array<{ path: string; constraints: Record<string, string> }> };
  };
};

describe('params binding and validation', () => {
  let server: TestApp;
  before(async () => (server = await startTestApp()));
  after(async () => server.close());

  const send = async (method: string, params: unknown) =>
    (await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }))).json as any;
  const fields = (reply: ErrorReply) =>
    Object.fromEntries(reply.error.data.fields.map((f) => [f.path, Object.keys(f.constraints)]));

  test('valid named params are transformed into the DTO, nested classes included', async () => {
    const params = {
      objective: 'Chart Alaska wind alerts',
      agent_type: 's2sp-pipeline',
      constraints: { max_steps: 12, token_budget: 8192 },
      context_refs: [{ uri: 'mem://session/abc' }],
      tags: ['wind'],
      dry_run: true,
      metadata: { anything: ['goes'] },
    };
    const reply = await send('task.submit', params);
    assert.equal(reply.result.status, 'ACCEPTED');
    assert.deepEqual(reply.result.echo, params);
  });

  test('-32602 names every invalid field and the failed constraint', async () => {
    const reply = (await send('task.submit', {
      objective: '',
      agent_type: 'wizard',
      constraints: { max_steps: 0, token_budget: 1.5 },
      context_refs: [{ uri: 'ok' }, { uri: 42 }],
      tags: ['a', 3],
      dry_run: 'yes',
      surprise: true,
    })) as ErrorReply;
    assert.equal(reply.error.code, -32602);
    assert.equal(reply.error.message, 'Invalid params');
    assert.deepEqual(fields(reply), {
      objective: ['isNotEmpty'],
      agent_type: ['isIn'],
      'constraints.max_steps': ['min'],
      'constraints.token_budget': ['isInt'],
      'context_refs[1].uri': ['isString'],
      tags: ['isString'],
      dry_run: ['isBoolean'],
      surprise: ['whitelistValidation'],
    });
    const messages = reply.error.data.fields.flatMap((f) => Object.values(f.constraints));
    assert.ok(messages.every((message) => typeof message === 'string' && message.length > 0));
  });

  test('a missing required field is named', async () => {
    const reply = (await send('subtract', { minuend: 1 })) as ErrorReply;
    assert.deepEqual(fields(reply), { subtrahend: ['isNumber'] });
  });

  test('no implicit type coercion: "42" is not a number', async () => {
    const reply = (await send('subtract', ['42', 23])) as ErrorReply;
    assert.equal(reply.error.code, -32602);
    assert.deepEqual(fields(reply), { minuend: ['isNumber'] });
  });

  test('positional params map by declared order; too many is an error', async () => {
    assert.equal((await send('subtract', [10, 4])).result, 6);
    const reply = (await send('subtract', [1, 2, 3])) as ErrorReply;
    assert.equal(reply.error.code, -32602);
    assert.deepEqual(fields(reply), { '[2]': ['maxPositional'] });
  });

  test('too few positional params leave the rest missing', async () => {
    const reply = (await send('subtract', [1])) as ErrorReply;
    assert.deepEqual(fields(reply), { subtrahend: ['isNumber'] });
  });

  test('a rest-positional method takes the whole array, or the named form', async () => {
    assert.equal((await send('sum', [1, 2, 4])).result, 7);
    assert.equal((await send('sum', { values: [1, 2] })).result, 3);
    assert.deepEqual(fields((await send('sum', [1, 'x'])) as ErrorReply), { values: ['isNumber'] });
  });

  test('a by-name method refuses an array', async () => {
    const reply = (await send('task.submit', ['objective'])) as ErrorReply;
    assert.equal(reply.error.code, -32602);
    assert.deepEqual(fields(reply), { '': ['paramStructure'] });
  });

  test('omitted params validate as an empty object', async () => {
    const reply = (await postRaw(server.url, '{"jsonrpc":"2.0","method":"subtract","id":1}')).json as ErrorReply;
    assert.deepEqual(fields(reply), { minuend: ['isNumber'], subtrahend: ['isNumber'] });
  });

  test('a __proto__ member in params is refused by name: no pollution, no crash, no silent drop', async () => {
    const body =
      '{"jsonrpc":"2.0","method":"subtract","params":{"minuend":5,"subtrahend":2,"__proto__":{"polluted":true}},"id":1}';
    const reply = (await postRaw(server.url, body)).json as ErrorReply;
    assert.equal(reply.error.code, -32602);
    assert.deepEqual(
      reply.error.data.fields.map((f) => [f.path, Object.keys(f.constraints)]),
      [['__proto__', ['whitelistValidation']]],
    );
    assert.equal(({} as any).polluted, undefined);
  });
});
