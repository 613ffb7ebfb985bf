import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SHARED_REDIS, SharedRedis } from '@s2sp/platform';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, startTestGateway, type TestGateway } from '../support/gateway-harness';
import { deleteKeysUnder, isolatedRedisOptions, redisOrSkip, redisUnavailableReason } from '../support/redis';

const LIMIT = 3;

describe('gateway rate limit in Redis (REDIS_URL)', () => {
  const redis = isolatedRedisOptions();
  let fake: FakeAgents;
  let gw: TestGateway | undefined;

  before(async () => {
    fake = await FakeAgents.start();
    if ((await redisUnavailableReason()) === undefined) {
      gw = await startTestGateway(fake, { redis, rateLimit: { limit: LIMIT, windowMs: 600_000 } });
    }
  });
  after(async () => {
    await gw?.close();
    if (gw) {
      const cleaner = await SharedRedis.connect(redis);
      await deleteKeysUnder(cleaner, redis.keyPrefix).finally(() => cleaner.close());
    }
    await fake?.stop();
    await removeTempDirs();
  });

  const listTools = (id: number) => ({ jsonrpc: '2.0', method: 'tools.list', params: {}, id });

  test('counts in Redis; when Redis stops answering, calls are refused as -32001, never let through uncounted', async (t) => {
    if (!(await redisOrSkip(t)) || !gw) return;
    for (let id = 1; id <= LIMIT; id++) assert.ok((await gw.post(listTools(id))).json.result);
    assert.equal((await gw.post(listTools(99))).json.error.code, 5001);

    gw.gateway.app.get<SharedRedis>(SHARED_REDIS).client.disconnect();
    const agentCalls = () => fake.callsTo('ListTools').length + fake.callsTo('GetTask').length;
    const calls = agentCalls();
    const { json } = await gw.post({
      jsonrpc: '2.0',
      method: 'agent.getTask',
      params: { task_id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd' },
      id: 7,
    });
    assert.equal(json.error.code, -32001);
    assert.equal(json.error.message, 'rate limit store unavailable');
    assert.equal(json.error.data.downstream, 'rate_limit_store');
    assert.equal(agentCalls(), calls, 'the agents were not called');
  });
});
