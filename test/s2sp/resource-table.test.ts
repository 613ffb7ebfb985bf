import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';
import { ResourceTableCache } from '../../libs/s2sp/src/store/resource-table-cache';
import type { CachedResourceInfo } from '../../libs/s2sp/src/store/resource-store.interface';

const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `r${i}`, n: i, nested: { even: i % 2 === 0 } }));

describe('ResourceTable', () => {
  test('encodes in blocks that decode to the same rows, in order', () => {
    const table = ResourceTable.capture(rows(20_000));
    const blocks = table.encodedBlocks();
    assert.ok(blocks.length > 1, `${blocks.length} blocks`);
    assert.equal(table.encodedLength, blocks.reduce((sum, block) => sum + block.length, 0));
    assert.deepEqual(ResourceTable.decode(blocks, 20_000).rows, rows(20_000));
  });

  test('a row that cannot be encoded fails the capture', () => {
    assert.throws(() => ResourceTable.capture([{ big: 1n }]), /BigInt/);
  });

  test('the encoded snapshot is taken at capture: later changes to the rows do not reach it', () => {
    const source = rows(3);
    const table = ResourceTable.capture(source);
    source[1]!.id = 'changed';
    assert.equal(ResourceTable.decode(table.encodedBlocks(), 3).rows[1]!.id, 'r1');
  });

  test('decoding refuses a missing block, a wrong row count and blocks that are not arrays of rows', () => {
    const blocks = ResourceTable.capture(rows(20_000)).encodedBlocks();
    assert.throws(() => ResourceTable.decode(blocks.slice(1), 20_000), /Stored table has \d+ rows; 20000 were stored/);
    assert.throws(() => ResourceTable.decode(['[{"a":1}', ']'], 1), /block 0 is not valid JSON/);
    assert.throws(() => ResourceTable.decode(['[1,2]'], 2), /block 0 is not an array of rows/);
    assert.throws(() => ResourceTable.decode(['{}'], 0), /block 0 is not an array of rows/);
  });
});

describe('ResourceTableCache', () => {
  const info = (expiresAt: Date) => ({ expiresAt }) as CachedResourceInfo;
  const entry = (count: number, expiresAt = new Date(Date.now() + 60_000)) => ({ info: info(expiresAt), table: ResourceTable.capture(rows(count)) });

  test('keeps within its budget, dropping the least recently used first', () => {
    const [a, b, c] = [entry(10), entry(10), entry(10)];
    const cache = new ResourceTableCache(a.table.encodedLength * 2 + 5);
    cache.set('a', a);
    cache.set('b', b);
    cache.get('a');
    cache.set('c', c);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), a);
    assert.equal(cache.get('c'), c);
    assert.ok(cache.usedLength <= a.table.encodedLength * 2 + 5);
  });

  test('a table larger than the whole budget is not kept; budget 0 keeps nothing', () => {
    const big = entry(100);
    const cache = new ResourceTableCache(big.table.encodedLength - 1);
    cache.set('big', big);
    assert.equal(cache.count, 0);
    const off = new ResourceTableCache(0);
    off.set('small', entry(1));
    assert.equal(off.count, 0);
  });

  test('take removes, deleteExpired drops the expired, peekInfo does not count as a use', () => {
    const now = new Date();
    const cache = new ResourceTableCache(1_000_000);
    cache.set('old', entry(1, new Date(now.getTime() - 1)));
    cache.set('live', entry(1));
    cache.set('next', entry(1));
    assert.ok(cache.peekInfo('old'));
    cache.deleteExpired(now);
    assert.equal(cache.peekInfo('old'), undefined);
    assert.ok(cache.take('live'));
    assert.equal(cache.take('live'), undefined);
    assert.equal(cache.count, 1);
    assert.equal(cache.usedLength, cache.get('next')!.table.encodedLength);
  });
});
