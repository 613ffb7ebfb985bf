import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LruCache } from '../../libs/auth/src/caching/lru-cache';

describe('LruCache', () => {
  test('evicts the least recently used entry; reads and writes both count as use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3); // evicts b
    assert.equal(cache.get('b'), undefined);
    cache.set('a', 10); // a rewritten: c is now the oldest
    cache.set('d', 4); // evicts c
    assert.equal(cache.get('c'), undefined);
    assert.equal(cache.get('a'), 10);
    assert.equal(cache.get('d'), 4);
    assert.equal(cache.size, 2);
  });

  test('delete removes an entry; maxEntries 0 stores nothing', () => {
    const cache = new LruCache<string, number>(1);
    cache.set('a', 1);
    cache.delete('a');
    assert.equal(cache.get('a'), undefined);
    const off = new LruCache<string, number>(0);
    off.set('a', 1);
    assert.equal(off.size, 0);
    assert.equal(off.get('a'), undefined);
  });

  test('refuses a negative or fractional size', () => {
    assert.throws(() => new LruCache(-1), /maxEntries/);
    assert.throws(() => new LruCache(2.5), /maxEntries/);
  });
});
