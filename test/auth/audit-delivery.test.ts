import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import { Test } from '@nestjs/testing';
import {
  AUDIT_SINK,
  AuthModule,
  authOptionsFromEnv,
  BatchingAuditSink,
  InMemoryAuditSink,
  type AuditEvent,
  type AuditSink,
} from '../../libs/auth/src';
import { resolveAuthOptions } from '../../libs/auth/src/internal';
import { resolveAuditDelivery } from '../../libs/auth/src/audit/audit-delivery';
import { tempDir } from './auth-fixtures';

function event(operation: string): AuditEvent {
  return {
    time: new Date().toISOString(),
    decision: 'allow',
    outcome: 'authorized',
    subject: 'alice',
    delegatedBy: [],
    protocol: 'json-rpc',
    service: 'gateway',
    operation,
    requiredScopes: [],
    missingScopes: [],
    mutationClass: 'READ_ONLY',
  };
}

/** A sink that stores groups as they arrive and fails while `failing` is set. */
class GroupRecordingSink implements AuditSink {
  readonly groups: string[][] = [];
  failing = false;

  record(): void {
    throw new Error('the batching delivery writes groups');
  }

  async recordMany(events: readonly AuditEvent[]): Promise<void> {
    if (this.failing) throw new Error('database down');
    this.groups.push(events.map((item) => item.operation));
  }

  get stored(): string[] {
    return this.groups.flat();
  }
}

const delivery = (overrides: Parameters<typeof resolveAuditDelivery>[0] = {}) =>
  resolveAuditDelivery({ mode: 'batched', flushIntervalMs: 60_000, maxBatchSize: 100, maxPending: 1000, ...overrides });

async function eventually(what: string, check: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('BatchingAuditSink', () => {
  test('record returns before anything is written; the group is written within the flush interval', async () => {
    const target = new GroupRecordingSink();
    const sink = new BatchingAuditSink(target, delivery({ flushIntervalMs: 20 }));
    await sink.record(event('a'));
    await sink.record(event('b'));
    assert.deepEqual(target.groups, [], 'nothing written yet');
    assert.equal(sink.pending, 2);
    await eventually('the timed flush', () => target.groups.length > 0);
    assert.deepEqual(target.groups, [['a', 'b']], 'one write for both, in order');
    assert.equal(sink.pending, 0);
  });

  test('flush writes in groups of at most maxBatchSize; a full group is written without waiting for the interval', async () => {
    const target = new GroupRecordingSink();
    const sink = new BatchingAuditSink(target, delivery({ maxBatchSize: 2 }));
    for (const name of ['a', 'b', 'c', 'd', 'e']) await sink.record(event(name));
    await eventually('the full groups', () => target.stored.length >= 4);
    await sink.flush();
    assert.deepEqual(target.groups.flat(), ['a', 'b', 'c', 'd', 'e']);
    assert.ok(target.groups.every((group) => group.length <= 2));
  });

  test('a failed write keeps the events, in order, for the next attempt (which the sink schedules itself)', async () => {
    const target = new GroupRecordingSink();
    const sink = new BatchingAuditSink(target, delivery({ flushIntervalMs: 5 }));
    target.failing = true;
    await sink.record(event('a'));
    await assert.rejects(sink.flush(), /database down/);
    await sink.record(event('b'));
    assert.equal(sink.pending, 2);
    target.failing = false;
    await eventually('the retry', () => target.stored.length === 2);
    assert.deepEqual(target.stored, ['a', 'b']);
  });

  test('a full queue makes record wait for the sink, and fail with it: that decision is withdrawn, the others kept', async () => {
    const target = new GroupRecordingSink();
    const sink = new BatchingAuditSink(target, delivery({ maxBatchSize: 2, maxPending: 3 }));
    target.failing = true;
    await sink.record(event('a'));
    await sink.record(event('b'));
    await assert.rejects(
      Promise.resolve(sink.record(event('c'))),
      /database down/,
      'the third decision cannot be stored',
    );
    assert.equal(sink.pending, 2, 'c is not kept: its call was refused');
    target.failing = false;
    await sink.record(event('c2'));
    await sink.flush();
    assert.deepEqual(target.stored, ['a', 'b', 'c2']);
  });

  test('without recordMany each event goes through record', async () => {
    const target = new InMemoryAuditSink();
    const sink = new BatchingAuditSink(target, delivery());
    await sink.record(event('a'));
    await sink.record(event('b'));
    assert.equal(target.events.length, 0);
    await sink.flush();
    assert.deepEqual(
      target.events.map((item) => item.operation),
      ['a', 'b'],
    );
  });

  test('shutdown writes what is queued; decisions after it are written at once', async () => {
    const target = new GroupRecordingSink();
    const sink = new BatchingAuditSink(target, delivery());
    await sink.record(event('a'));
    await sink.beforeApplicationShutdown();
    assert.deepEqual(target.stored, ['a']);
    await sink.recordMany([event('late')]);
    assert.deepEqual(target.groups, [['a'], ['late']]);
  });
});

describe('audit delivery configuration', () => {
  const dir = tempDir();
  after(() => dir.remove());

  test('blocking gives the configured sink itself; batched wraps it and the app shutdown flushes it', async () => {
    const blockingTarget = new InMemoryAuditSink();
    const blocking = await Test.createTestingModule({
      imports: [
        AuthModule.forRoot({
          audience: 'gateway',
          dataDir: dir.path,
          auditSink: { useValue: blockingTarget },
          auditDelivery: { mode: 'blocking' },
        }),
      ],
    }).compile();
    assert.equal(blocking.get(AUDIT_SINK), blockingTarget);
    await blocking.close();

    const target = new InMemoryAuditSink();
    const batched = await Test.createTestingModule({
      imports: [AuthModule.forRoot({ audience: 'gateway', dataDir: dir.path, auditSink: { useValue: target } })],
    }).compile();
    const sink = batched.get<AuditSink>(AUDIT_SINK);
    assert.ok(sink instanceof BatchingAuditSink);
    await sink.record(event('queued at shutdown'));
    assert.equal(target.events.length, 0);
    await batched.close();
    assert.deepEqual(
      target.events.map((item) => item.operation),
      ['queued at shutdown'],
    );
  });

  test('defaults, environment variables, and refusals that name the setting', () => {
    assert.deepEqual(resolveAuthOptions({ audience: 'a' }).auditDelivery, {
      mode: 'batched',
      flushIntervalMs: 100,
      maxBatchSize: 500,
      maxPending: 10_000,
      maxRetryDelayMs: 5_000,
    });
    assert.deepEqual(
      authOptionsFromEnv('a', {
        S2SP_AUTH_AUDIT_DELIVERY: 'blocking',
        S2SP_AUTH_AUDIT_FLUSH_INTERVAL_MS: '250',
        S2SP_AUTH_AUDIT_MAX_BATCH: '50',
        S2SP_AUTH_AUDIT_MAX_PENDING: '5000',
        S2SP_AUTH_AUDIT_MAX_RETRY_DELAY_MS: '30000',
      }).auditDelivery,
      { mode: 'blocking', flushIntervalMs: 250, maxBatchSize: 50, maxPending: 5000, maxRetryDelayMs: 30_000 },
    );
    assert.equal(authOptionsFromEnv('a', {}).auditDelivery, undefined);
    assert.throws(
      () => authOptionsFromEnv('a', { S2SP_AUTH_AUDIT_DELIVERY: 'later' }),
      /S2SP_AUTH_AUDIT_DELIVERY must be one of blocking, batched/,
    );
    assert.throws(
      () => authOptionsFromEnv('a', { S2SP_AUTH_AUDIT_FLUSH_INTERVAL_MS: '0' }),
      /S2SP_AUTH_AUDIT_FLUSH_INTERVAL_MS/,
    );
    assert.throws(() => authOptionsFromEnv('a', { S2SP_AUTH_AUDIT_MAX_BATCH: 'x' }), /S2SP_AUTH_AUDIT_MAX_BATCH/);
    assert.throws(
      () => resolveAuthOptions({ audience: 'a', auditDelivery: { maxBatchSize: 100, maxPending: 10 } }),
      /auditDelivery.maxPending must be at least auditDelivery.maxBatchSize/,
    );
    assert.throws(
      () => resolveAuthOptions({ audience: 'a', auditDelivery: { mode: 'eventually' as never } }),
      /auditDelivery.mode/,
    );
  });
});
