import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';
import { ResourceTableCache } from '../../libs/s2sp/src/store/resource-table-cache';
import type { CachedResourceInfo } from '../../libs/s2sp/src/store/resource-store.interface';

/** A table whose stored form was written, as the store leaves it before caching it. */
const encoded = (source: Array<Record<string, unknown>>) => {
  const table = ResourceTable.of(source);
  for (const _block of table.encode());
  return table;
};

const rows = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `r${i}`, n: i, nested: { even: i % 2 === 0 } }));

describe('ResourceTable', () => {
  test('encodes in blocks that decode to the same rows, in order', () => {
    const table = ResourceTable.of(rows(20_000));
    assert.equal(table.encodedLength, undefined, 'not encoded yet');
    const blocks = [...table.encode()];
    assert.ok(blocks.length > 1, `${blocks.length} blocks`);
    // Each block is one string: kept below V8's large-object size (128 KB), it dies young.
    assert.ok(
      blocks.every((block) => block.length <= 64 * 1024),
      `longest block ${Math.max(...blocks.map((block) => block.length))}`,
    );
    assert.ok(
      blocks.slice(1, -1).every((block) => block.length > 30_000),
      'blocks after the first are sized to the rows seen, not a few rows each',
    );
    const wide = Array.from({ length: 3_000 }, (_, i) => ({ text: `${i} ${'x'.repeat(500)}`, i }));
    const wideBlocks = [...ResourceTable.of(wide).encode()];
    assert.ok(
      wideBlocks.every((block) => block.length <= 64 * 1024),
      'wide rows: fewer rows per block, not longer blocks',
    );
    assert.deepEqual(ResourceTable.decode(wideBlocks, 3_000).rows, wide);
    assert.equal(
      table.encodedLength,
      blocks.reduce((sum, block) => sum + block.length, 0),
    );
    assert.ok(table.encodedLength < JSON.stringify(rows(20_000)).length * 0.75, 'no column name repeated per row');
    assert.deepEqual(ResourceTable.decode(blocks, 20_000).rows, rows(20_000));
  });

  test('blocks are encoded one at a time, as they are asked for; a row that cannot be encoded fails its block', () => {
    const source: Array<Record<string, unknown>> = rows(20_000);
    source[19_999] = { big: 1n };
    const blocks = ResourceTable.of(source).encode();
    assert.equal(blocks.next().done, false, 'the first block encodes although a later row cannot');
    assert.throws(() => {
      for (const _block of blocks);
    }, /BigInt/);
  });

  test('decoding refuses a missing block, a wrong row count and blocks that are neither rows nor columns', () => {
    const blocks = [...ResourceTable.of(rows(20_000)).encode()];
    assert.throws(() => ResourceTable.decode(blocks.slice(1), 20_000), /Stored table has \d+ rows; 20000 were stored/);
    assert.throws(() => ResourceTable.decode(['[{"a":1}', ']'], 1), /block 0 is not valid JSON/);
    assert.throws(() => ResourceTable.decode(['[1,2]'], 2), /block 0 is not an array of rows/);
    for (const malformed of [
      {},
      { rows: 2, columns: ['a'], values: [[1]] },
      { rows: 1, columns: ['a', 'b'], values: [[1]] },
      { rows: 1, columns: [1], values: [[1]] },
      { rows: -1, columns: [], values: [] },
      { rows: 1, columns: ['a'], values: [[1]], absent: { 1: [0] } },
      { rows: 1, columns: ['a'], values: [[1]], absent: { 0: [1] } },
      { rows: 1, columns: ['a'], values: [[1]], absent: [] },
    ]) {
      assert.throws(
        () => ResourceTable.decode([JSON.stringify(malformed)], 1),
        /block 0 is neither an array of rows nor a block of columns/,
        JSON.stringify(malformed),
      );
    }
  });

  test('stores columns, not rows: each column name once per block, and rows come back with exactly the cells they had', () => {
    const source: Array<Record<string, unknown>> = [
      { area: 'CA', severity: 'Severe', detail: { text: 'Flood' } },
      { area: 'OR', extra: null },
      { severity: 'Minor', undefinedCell: undefined },
      { toString: 'a column named like an Object method', constructor: 7 },
      JSON.parse('{"__proto__": {"polluted": true}, "area": "WA"}') as Record<string, unknown>,
      {},
    ];
    const blocks = [...ResourceTable.of(source).encode()];
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].split('"severity"').length - 1, 1, 'the column name is written once');
    const decoded = ResourceTable.decode(blocks, source.length).rows;
    assert.deepEqual(decoded.slice(0, 4), [source[0], source[1], { severity: 'Minor' }, source[3]]);
    assert.ok(
      Object.prototype.hasOwnProperty.call(decoded[4], '__proto__'),
      '__proto__ is an own column, not the prototype',
    );
    assert.deepEqual(Object.getOwnPropertyDescriptor(decoded[4], '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(decoded[5], {});
    assert.equal(Object.keys(decoded[1]).join(), 'area,extra', 'a row without a column does not get it back as null');
  });

  test('a row carrying its own _row_id is stored without it (the data plane always answers with its own)', () => {
    const blocks = [...ResourceTable.of([{ _row_id: 'theirs', a: 1 }]).encode()];
    assert.deepEqual(ResourceTable.decode(blocks, 1).rows, [{ a: 1 }]);
  });

  test('blocks stored as arrays of rows, before column blocks, still decode', () => {
    assert.deepEqual(ResourceTable.decode(['[{"a":1},{"b":2}]', '[{"a":3}]'], 3).rows, [{ a: 1 }, { b: 2 }, { a: 3 }]);
  });
});

describe('ResourceTable.compact', () => {
  test('a written table of one block is held by that block alone and gives back the same rows', () => {
    const source = rows(64).map((row, index) => (index === 3 ? { id: row.id, late: 'only here' } : row));
    const table = ResourceTable.of(source);
    assert.equal(table.compact(), table, 'not encoded yet: nothing to hold it by');
    const [block] = [...table.encode()];
    const compact = table.compact();
    assert.notEqual(compact, table);
    assert.equal(compact.rowCount, 64);
    assert.equal(compact.encodedLength, block.length);
    assert.deepEqual([...compact.encode()], [block], 'its stored form is the block it holds');
    assert.equal(
      (compact as unknown as { decodedRows?: unknown }).decodedRows,
      undefined,
      'no row object is made before the rows are read',
    );
    assert.deepEqual(compact.rows, source, 'the rows, absent cells included, as they were');
    assert.equal(compact.rows, compact.rows, 'decoded once');
  });

  test('a table of several blocks, or of none, stays as it is', () => {
    const several = encoded(rows(65));
    assert.equal(several.compact(), several);
    const empty = encoded([]);
    assert.equal(empty.compact(), empty);
  });
});

describe('ResourceTableCache', () => {
  const info = (expiresAt: Date) => ({ expiresAt }) as CachedResourceInfo;
  const entry = (count: number, expiresAt = new Date(Date.now() + 60_000)) => ({
    info: info(expiresAt),
    table: encoded(rows(count)),
  });

  test('keeps within its budget, dropping the least recently used first', () => {
    const [a, b, c] = [entry(10), entry(10), entry(10)];
    const budget = a.table.encodedLength! * 2 + 5;
    const cache = new ResourceTableCache(budget);
    cache.set('a', a);
    cache.set('b', b);
    cache.get('a');
    cache.set('c', c);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.equal(cache.get('a'), a);
    assert.equal(cache.get('c'), c);
    assert.ok(cache.usedLength <= budget);
  });

  test('a table larger than the whole budget is not kept; budget 0 keeps nothing', () => {
    const big = entry(100);
    const cache = new ResourceTableCache(big.table.encodedLength! - 1);
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

  test('a table is cached only once its stored form was written (its size is then known)', () => {
    const cache = new ResourceTableCache(1_000_000);
    assert.throws(
      () => cache.set('raw', { info: info(new Date(Date.now() + 60_000)), table: ResourceTable.of(rows(1)) }),
      /before it was encoded/,
    );
    assert.equal(cache.count, 0);
  });
});
