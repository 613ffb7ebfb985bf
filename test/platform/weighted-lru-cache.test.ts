import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WeightedLruCache } from '@s2sp/platform/internal';

describe('WeightedLruCache', () => {
  test('evicts the least recently used entry; reads and writes both count as use', () => {
    const cache = new WeightedLruCache<string, number>(2);
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

  test('delete removes an entry and returns its value; budget 0 stores nothing', () => {
    const cache = new WeightedLruCache<string, number>(1);
    cache.set('a', 1);
    assert.equal(cache.delete('a'), 1);
    assert.equal(cache.delete('a'), undefined);
    assert.equal(cache.get('a'), undefined);
    const off = new WeightedLruCache<string, number>(0);
    off.set('a', 1);
    assert.equal(off.size, 0);
    assert.equal(off.get('a'), undefined);
  });

  test('refuses a negative or fractional size', () => {
    assert.throws(() => new WeightedLruCache(-1), /maxWeight/);
    assert.throws(() => new WeightedLruCache(2.5), /maxWeight/);
    assert.throws(() => new WeightedLruCache(-1, { budgetName: 'maxEntries' }), /^RangeError: maxEntries must be/);
  });

  test('weighted: evicts the least recently used until the total fits; a value heavier than the budget is not kept', () => {
    const cache = new WeightedLruCache<string, string>(10, { weigh: (text) => text.length });
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    assert.equal(cache.get('a'), 'xxxx');
    assert.equal(cache.peek('b'), 'yyyy', 'peek is not a use');
    cache.set('c', 'zzzz'); // 12 > 10: b, the least recently used, goes
    assert.equal(cache.get('b'), undefined);
    assert.deepEqual([cache.size, cache.weight], [2, 8]);
    cache.set('big', 'x'.repeat(11));
    assert.equal(cache.get('big'), undefined);
    assert.deepEqual([cache.size, cache.weight], [2, 8], 'a value over the budget evicts nothing');
    cache.deleteWhere((text) => text.startsWith('z'));
    assert.deepEqual([cache.size, cache.weight], [1, 4]);
  });
});
