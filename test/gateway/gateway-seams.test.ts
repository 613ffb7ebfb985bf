// GatewayModule's seams: an idempotency store and a rate-limit storage of the deployment's
// own, put in place of the defaults through GatewayModuleExtras (startGateway / GatewayModule.forRoot).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { FakeAgents } from '../support/fake-agents';
import { RecordingIdempotencyStore } from '../support/recording-idempotency-store';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';

/** Counts every call it is asked about, and blocks them all once told to, whatever the configured limit. */
class SwitchableStorage implements ThrottlerStorage {
  increments = 0;
  blocking = false;
  async increment(_key: string, ttl: number): ReturnType<ThrottlerStorage['increment']> {
    this.increments += 1;
    const seconds = Math.ceil(ttl / 1000);
    return {
      totalHits: this.increments,
      timeToExpire: seconds,
      isBlocked: this.blocking,
      timeToBlockExpire: this.blocking ? seconds : 0,
    };
  }
}

const submit = (key: string) => ({
  objective: 'Chart the wind alerts',
  plan: [
    {
      step_id: 'alerts',
      resource_call: { server: 'weather', tool: 'get_alerts', arguments: { area: 'CA' }, abstract_domains: ['event'] },
    },
  ],
  idempotency_key: key,
});

describe('gateway seams: the idempotency store and the rate-limit storage are the deployment’s to replace', () => {
  const store = new RecordingIdempotencyStore();
  const storage = new SwitchableStorage();
  let fake: FakeAgents;
  let gw: TestGateway;

  before(async () => {
    fake = await FakeAgents.start();
    gw = await startTestGateway(fake, {}, undefined, { idempotencyStore: store, rateLimitStorage: storage });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });

  test('idempotency records go to the given store, and a retry is answered from it', async () => {
    const first = await gw.client.request('agent.submitTask', submit('seam-key-1'));
    assert.deepEqual(store.calls.slice(0, 2), ['claim', 'complete']);
    assert.equal(store.records.size, 1);
    assert.equal([...store.records.values()][0].state, 'COMPLETED');
    const again = await gw.client.request('agent.submitTask', submit('seam-key-1'));
    assert.deepEqual(again, first);
    assert.equal(fake.callsTo('SubmitTask').length, 1, 'the retry did not reach the agents');
  });

  test('rate limits are counted in the given storage: its verdict is what the caller gets', async () => {
    const before = storage.increments;
    await gw.client.request('tools.list', {});
    assert.equal(storage.increments, before + 1);
    storage.blocking = true;
    const refused = await rpcError(gw.client.request('tools.list', {}));
    assert.equal(refused.code, 5001);
    assert.equal(storage.increments, before + 2);
  });
});
