import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DataBuffer, HandleError, readS2spResourceAnswer } from '@s2sp/agent';

/** A sync answer whose body the server sent for row 0 only. */
const answer = readS2spResourceAnswer({
  structuredContent: {
    total_rows: 2,
    abstract_domains: ['event'],
    body_domains: ['description'],
    abstract: [
      { _row_id: 0, event: 'Flood Watch' },
      { _row_id: 1, event: 'Wind Advisory' },
    ],
    body: [{ _row_id: 0, description: 'Rivers rise.' }],
  },
});

test('a sync handle hands over exactly the chosen rows; a body the server left out is an error, and spends nothing', () => {
  assert.ok(answer);
  const buffer = new DataBuffer({ ttlMs: 60_000, maxHandles: 4 });
  const kept = buffer.keep(answer, { serverId: 'weather', tool: 'get_alerts' });
  assert.throws(
    () => buffer.spend(kept.handle, answer.abstract),
    (error: unknown) =>
      error instanceof HandleError && /held no body for rows 1: call get_alerts again/.test(error.message),
  );
  assert.deepEqual(buffer.spend(kept.handle, [answer.abstract[0]]), {
    mode: 'sync',
    body: [{ _row_id: 0, description: 'Rivers rise.' }],
  });
  assert.throws(() => buffer.get(kept.handle), /already handed to a consumer tool/);
});

test("with reuseSyncBodies (the agents' task runtime), a sync body serves several consumers; a resource_url still serves one", () => {
  assert.ok(answer);
  const buffer = new DataBuffer({ ttlMs: 60_000, maxHandles: 4, reuseSyncBodies: true });
  const sync = buffer.keep(answer, { serverId: 'weather', tool: 'get_alerts' });
  const first = buffer.spend(sync.handle, [answer.abstract[0]]);
  assert.deepEqual(buffer.spend(sync.handle, [answer.abstract[0]]), first);
  const asyncAnswer = readS2spResourceAnswer({
    structuredContent: { ...answer.controlPlane, body: undefined, resource_url: 'http://127.0.0.1:3101/s2sp/data/abc' },
  });
  assert.ok(asyncAnswer?.resourceUrl);
  const async = buffer.keep(asyncAnswer, { serverId: 'weather', tool: 'get_alerts' });
  assert.deepEqual(buffer.spend(async.handle, asyncAnswer.abstract), {
    mode: 'async',
    resourceUrl: 'http://127.0.0.1:3101/s2sp/data/abc',
  });
  assert.throws(() => buffer.spend(async.handle, asyncAnswer.abstract), /already handed to a consumer tool/);
});
