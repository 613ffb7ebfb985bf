import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InMemoryResourceStore, ResourceTable, type NewCachedResource } from '@s2sp/core';

function resource(tokenHash: string, expiresAt: Date): NewCachedResource {
  return {
    tokenHash,
    toolName: 'get_alerts',
    columns: ['event', 'description'],
    abstractDomains: ['event'],
    bodyDomains: ['description'],
    table: ResourceTable.of([{ event: 'Wind', description: 'Gusts' }]),
    caller: 'alice',
    expiresAt,
  };
}

describe('InMemoryResourceStore', () => {
  const later = (): Date => new Date(Date.now() + 60_000);

  test('saves a resource, finds it live, and hands its table to exactly one of many concurrent claims', async () => {
    const store = new InMemoryResourceStore();
    const info = await store.save(resource('h1', later()));
    assert.equal(info.rowCount, 1);
    assert.equal(info.caller, 'alice');
    assert.deepEqual(await store.findLive('h1'), info);
    const claims = await Promise.all(Array.from({ length: 20 }, () => store.claim('h1')));
    const won = claims.filter((claim) => claim !== null);
    assert.equal(won.length, 1);
    assert.deepEqual(won[0].table.rows, [{ event: 'Wind', description: 'Gusts' }]);
    assert.equal(await store.findLive('h1'), null, 'consumed');
    assert.equal(await store.claim('h1'), null);
  });

  test('an expired resource is neither live nor claimable, and the sweep removes what expired', async () => {
    const store = new InMemoryResourceStore();
    const now = new Date();
    await store.save(resource('old', new Date(now.getTime() - 1)));
    await store.save(resource('new', later()));
    assert.equal(await store.findLive('old', now), null);
    assert.equal(await store.sweepExpired(now), 1);
    assert.equal(store.size, 1);
    assert.equal(await store.claim('old', now), null);
    await store.save(resource('soon', new Date(now.getTime() + 10)));
    assert.equal(await store.claim('soon', new Date(now.getTime() + 20)), null, 'expired at claim time');
  });

  test('unknown token hashes are null; a token hash is never stored twice', async () => {
    const store = new InMemoryResourceStore();
    assert.equal(await store.findLive('nope'), null);
    assert.equal(await store.claim('nope'), null);
    await store.save(resource('dup', later()));
    await assert.rejects(store.save(resource('dup', later())), /exists already/);
  });
});
