import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { Injectable, type Type } from '@nestjs/common';
import { GATEWAY_DATABASE, type IdempotencyRecordView, type IdempotencyStore } from '../../libs/gateway/src';
import { PrismaIdempotencyStore } from '../../libs/gateway/src/idempotency/prisma-idempotency-store';
import type { S2spDatabase } from '../../libs/database/src/database';
import { FakeAgents, sleep } from '../support/fake-agents';
import { freshDataDir, removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';
import { eventually } from '../support/eventually';

const TASK_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';

function submitParams(key: string, objective = 'Chart the wind alerts'): Record<string, unknown> {
  return {
    objective,
    plan: [
      {
        step_id: 'alerts',
        resource_call: {
          server: 'weather',
          tool: 'get_alerts',
          arguments: { area: 'CA' },
          abstract_domains: ['event'],
        },
      },
      {
        step_id: 'wind',
        filter: { input_step_id: 'alerts', predicate: { field: 'event', op: 'contains', value: 'Wind' } },
      },
    ],
    idempotency_key: key,
  };
}

let keySequence = 0;
const newKey = (): string => `key-${process.pid}-${++keySequence}`;

function records(gw: TestGateway): S2spDatabase['client']['idempotencyRecord'] {
  return gw.gateway.app.get<S2spDatabase>(GATEWAY_DATABASE).client.idempotencyRecord;
}

/**
 * The gateway's own store, seen `clock.passedMs` later: every expiry it reads or sweeps by is that
 * much closer, as if that time had passed. The test moves the clock instead of waiting.
 */
function storeSeenLater(clock: { passedMs: number }): Type<IdempotencyStore> {
  @Injectable()
  class StoreSeenLater extends PrismaIdempotencyStore {
    override async find(keyHash: string): Promise<IdempotencyRecordView | undefined> {
      const record = await super.find(keyHash);
      return record && { ...record, expiresAt: new Date(record.expiresAt.getTime() - clock.passedMs) };
    }
    override deleteIfExpired(keyHash: string, now: Date): Promise<void> {
      return super.deleteIfExpired(keyHash, new Date(now.getTime() + clock.passedMs));
    }
    override sweepExpired(now: Date): Promise<number> {
      return super.sweepExpired(new Date(now.getTime() + clock.passedMs));
    }
  }
  return StoreSeenLater;
}

describe('gateway idempotency (idempotency_key on agent.submitTask, agent.cancelTask, tools.call)', () => {
  let fake: FakeAgents;
  let gw: TestGateway;

  before(async () => {
    fake = await FakeAgents.start();
    gw = await startTestGateway(fake, { circuitBreaker: { minimumCalls: 10_000 } });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });
  beforeEach(() => fake.reset());

  test('a retry returns the first response without calling the agents again', async () => {
    const key = newKey();
    const first = await gw.client.request('agent.submitTask', submitParams(key));
    const again = await gw.client.request('agent.submitTask', submitParams(key));
    assert.deepEqual(again, first);
    assert.equal(fake.callsTo('SubmitTask').length, 1);
    // a retry with another deadline and members in another order is the same request
    const reordered = Object.fromEntries(Object.entries(submitParams(key)).reverse());
    const third = await gw.client.request('agent.submitTask', { ...reordered, deadline_ms: Date.now() + 5_000 });
    assert.deepEqual(third, first);
    assert.equal(fake.callsTo('SubmitTask').length, 1);
    const row = await records(gw).findFirst({
      where: { method: 'agent.submitTask', state: 'COMPLETED' },
      orderBy: { createdAt: 'desc' },
    });
    assert.ok(row);
    assert.match(row.keyHash, /^[0-9a-f]{64}$/);
    assert.notEqual(row.keyHash.includes(key), true);
    const ttl = row.expiresAt.getTime() - Date.now();
    assert.ok(ttl > 23 * 3600_000 && ttl <= 24 * 3600_000, `TTL ${ttl}`);
  });

  test('tools.call and agent.cancelTask replay too; the key is scoped to the method', async () => {
    const key = newKey();
    const call = { name: 'echo', arguments: { n: 1 }, idempotency_key: key };
    const first = await gw.client.request('tools.call', call);
    assert.deepEqual(await gw.client.request('tools.call', call), first);
    assert.equal(fake.callsTo('InvokeTool').length, 1);

    const cancel = { task_id: TASK_ID, mode: 'hard', idempotency_key: key };
    assert.deepEqual(await gw.client.request('agent.cancelTask', cancel), { task_id: TASK_ID, status: 'cancelled' });
    assert.deepEqual(await gw.client.request('agent.cancelTask', cancel), { task_id: TASK_ID, status: 'cancelled' });
    assert.equal(fake.callsTo('CancelTask').length, 1);
  });

  test('calls without a key are not deduplicated', async () => {
    await gw.client.request('tools.call', { name: 'echo' });
    await gw.client.request('tools.call', { name: 'echo' });
    assert.equal(fake.callsTo('InvokeTool').length, 2);
  });

  test('concurrent duplicates run the handler once and all get its response', async () => {
    fake.delay('SubmitTask', 300);
    const key = newKey();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => gw.client.request('agent.submitTask', submitParams(key))),
    );
    assert.equal(fake.callsTo('SubmitTask').length, 1);
    for (const result of results) assert.deepEqual(result, results[0]);
    assert.equal(results[0].status, 'accepted');
  });

  test('concurrent duplicates inside one batch run once too', async () => {
    fake.delay('InvokeTool', 200);
    const key = newKey();
    const call = (id: number) => ({
      jsonrpc: '2.0',
      method: 'tools.call',
      params: { name: 'echo', idempotency_key: key },
      id,
    });
    const { json } = await gw.post([call(1), call(2), call(3)]);
    assert.equal(fake.callsTo('InvokeTool').length, 1);
    assert.deepEqual(json[1].result, json[0].result);
    assert.deepEqual(json[2].result, json[0].result);
  });

  test('the same key with different params is -32602 naming idempotency_key', async () => {
    const key = newKey();
    await gw.client.request('agent.submitTask', submitParams(key, 'first objective'));
    const error = await rpcError(gw.client.request('agent.submitTask', submitParams(key, 'another objective')));
    assert.equal(error.code, -32602);
    assert.match(error.message, /idempotency_key was already used/);
    assert.equal(error.data.fields[0].path, 'idempotency_key');
    assert.equal(fake.callsTo('SubmitTask').length, 1);
  });

  test('an error is not stored: the retry runs again', async () => {
    fake.fail('SubmitTask', GrpcStatus.UNAVAILABLE, 'agents restarting');
    const key = newKey();
    const error = await rpcError(gw.client.request('agent.submitTask', submitParams(key)));
    assert.equal(error.code, -32001);
    assert.equal(await records(gw).count({ where: { method: 'agent.submitTask', state: 'IN_PROGRESS' } }), 0);
    fake.reset();
    const result = await gw.client.request('agent.submitTask', submitParams(key));
    assert.equal(result.status, 'accepted');
    assert.equal(fake.callsTo('SubmitTask').length, 1);
  });

  test('a duplicate that cannot wait for the first call gets a clear "in progress" error', async () => {
    fake.delay('SubmitTask', 1_500);
    const key = newKey();
    const first = gw.client.request('agent.submitTask', submitParams(key));
    while (fake.callsTo('SubmitTask').length === 0) await sleep(10); // the first call holds the key
    const error = await rpcError(
      gw.client.request('agent.submitTask', submitParams(key), { 'X-Deadline-Ms': String(Date.now() + 300) }),
    );
    assert.equal(error.code, -32002);
    assert.equal(error.message, 'A request with this idempotency_key is still in progress');
    assert.equal(error.data.idempotency_key, key);
    assert.equal(error.data.retry_after, 1);
    assert.equal(error.data.recovery_hint, 'RETRY_AFTER');
    const result = await first;
    assert.deepEqual(await gw.client.request('agent.submitTask', submitParams(key)), result);
    assert.equal(fake.callsTo('SubmitTask').length, 1);
  });

  test('expired records stop answering and are swept', async () => {
    const clock = { passedMs: 0 };
    const shortLived = await startTestGateway(
      fake,
      { circuitBreaker: { minimumCalls: 10_000 }, idempotency: { ttlMs: 60_000, sweepIntervalMs: 200 } },
      undefined,
      { idempotencyStore: storeSeenLater(clock) },
    );
    try {
      const key = newKey();
      await shortLived.client.request('tools.call', { name: 'echo', idempotency_key: key });
      assert.equal(await records(shortLived).count(), 1);
      await shortLived.client.request('tools.call', { name: 'echo', idempotency_key: key });
      assert.equal(fake.callsTo('InvokeTool').length, 1, 'within the TTL the response is replayed');
      clock.passedMs = 61_000; // a minute passes
      await shortLived.client.request('tools.call', { name: 'echo', idempotency_key: key });
      assert.equal(fake.callsTo('InvokeTool').length, 2, 'the expired response was not replayed');
      clock.passedMs = 122_000;
      await eventually(
        'the sweeper to delete the expired records',
        async () => (await records(shortLived).count()) === 0,
      );
    } finally {
      await shortLived.close();
    }
  });

  test('stored responses survive a gateway restart (PGlite data dir)', async () => {
    const dataDir = await freshDataDir();
    const key = newKey();
    const before = await startTestGateway(fake, {}, dataDir);
    let first: unknown;
    try {
      first = await before.client.request('agent.submitTask', submitParams(key));
    } finally {
      await before.close();
    }
    const after = await startTestGateway(fake, {}, dataDir);
    try {
      assert.deepEqual(await after.client.request('agent.submitTask', submitParams(key)), first);
      assert.equal(fake.callsTo('SubmitTask').length, 1);
      const error = await rpcError(after.client.request('agent.submitTask', submitParams(key, 'changed')));
      assert.equal(error.data.fields[0].path, 'idempotency_key');
    } finally {
      await after.close();
    }
  });

  test('idempotency_key itself is validated', async () => {
    const error = await rpcError(
      gw.client.request('tools.call', { name: 'echo', idempotency_key: 'has spaces in it' }),
    );
    assert.equal(error.code, -32602);
    assert.equal(error.data.fields[0].path, 'idempotency_key');
    const notString = await rpcError(gw.client.request('tools.call', { name: 'echo', idempotency_key: 42 }));
    assert.equal(notString.data.fields[0].path, 'idempotency_key');
  });
});
