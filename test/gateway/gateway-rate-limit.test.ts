import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SlidingWindowThrottlerStorage } from '@s2sp/platform';
import { FakeAgents } from '../support/fake-agents';
import { bearerFor } from '../support/tokens';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';

const LIMIT = 3;
// Long enough that how fast tokens are minted never matters: the tests move the storage's clock instead.
const WINDOW_MS = 60_000;
const TASK_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';

describe('gateway rate limit per caller and method', () => {
  let fake: FakeAgents;
  let gw: TestGateway;
  let clock = Date.now();

  before(async () => {
    fake = await FakeAgents.start();
    const rateLimitStorage = new SlidingWindowThrottlerStorage(WINDOW_MS, () => clock);
    gw = await startTestGateway(fake, { host: '::', rateLimit: { limit: LIMIT, windowMs: WINDOW_MS } }, undefined, {
      rateLimitStorage,
    });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });
  beforeEach(async () => {
    fake.reset();
    clock += WINDOW_MS + 1; // every test starts with full buckets
  });

  const ipv4Url = (): string => `http://127.0.0.1:${gw.gateway.port}/rpc`;
  const post = async (url: string, body: unknown, subject = 'alice') => {
    const authorization = await bearerFor({ audience: 'gateway', subject });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as any };
  };
  const listTools = (id: number) => ({ jsonrpc: '2.0', method: 'tools.list', params: {}, id });

  test('over the limit: 5001 with retry_after and a recovery hint, without calling the agents', async () => {
    for (let id = 1; id <= LIMIT; id++) assert.ok((await post(ipv4Url(), listTools(id))).json.result);
    const { status, json } = await post(ipv4Url(), listTools(99));
    assert.equal(status, 200);
    assert.equal(json.id, 99);
    assert.equal(json.error.code, 5001);
    assert.equal(json.error.message, 'Rate limit exceeded');
    assert.equal(json.error.data.recovery_hint, 'RETRY_AFTER');
    assert.equal(json.error.data.method, 'tools.list');
    assert.equal(json.error.data.limit, LIMIT);
    assert.ok(Number.isInteger(json.error.data.retry_after), String(json.error.data.retry_after));
    assert.ok(json.error.data.retry_after >= 1 && json.error.data.retry_after <= Math.ceil(WINDOW_MS / 1000));
    assert.equal(fake.callsTo('ListTools').length, LIMIT);
  });

  test('the limit is per method: another method still has its own budget', async () => {
    for (let id = 1; id <= LIMIT + 1; id++) await post(ipv4Url(), listTools(id));
    const { json } = await post(ipv4Url(), {
      jsonrpc: '2.0',
      method: 'agent.getTask',
      params: { task_id: TASK_ID },
      id: 1,
    });
    assert.equal(json.result.task_id, TASK_ID);
  });

  test('the limit is per caller: the verified subject, whatever address it calls from', async () => {
    for (let id = 1; id <= LIMIT + 1; id++) await post(ipv4Url(), listTools(id), 'alice');
    assert.equal((await post(ipv4Url(), listTools(1), 'alice')).json.error.code, 5001);
    assert.equal(
      (await post(`http://[::1]:${gw.gateway.port}/rpc`, listTools(1), 'alice')).json.error.code,
      5001,
      'another address, same subject',
    );
    const other = await post(ipv4Url(), listTools(1), 'bob');
    assert.equal(other.json.result.tools.length, 3);
  });

  test('every call of a batch counts', async () => {
    const batch = Array.from({ length: LIMIT + 2 }, (_, index) => ({
      jsonrpc: '2.0',
      method: 'tools.call',
      params: { name: 'echo' },
      id: index + 1,
    }));
    const { json } = await post(ipv4Url(), batch);
    assert.equal(json.filter((response: { result?: unknown }) => response.result).length, LIMIT);
    assert.equal(json.filter((response: { error?: { code: number } }) => response.error?.code === 5001).length, 2);
    assert.equal(fake.callsTo('InvokeTool').length, LIMIT);
  });

  test('the window slides: after retry_after the caller may call again', async () => {
    for (let id = 1; id <= LIMIT; id++) await gw.client.request('tools.list', {});
    const error = await rpcError(gw.client.request('tools.list', {}));
    assert.equal(error.code, 5001);
    clock += error.data.retry_after * 1000 - 1_000;
    assert.equal((await rpcError(gw.client.request('tools.list', {}))).code, 5001, 'a second before retry_after');
    clock += 1_000;
    assert.equal((await gw.client.request('tools.list', {})).tools.length, 3);
  });

  test('GET /health is not rate limited', async () => {
    for (let index = 0; index < LIMIT + 2; index++) assert.equal((await gw.health()).status, 200);
  });
});
