import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonAnswerChunks } from '../../libs/s2sp/src/data-plane/json-answer-chunks';
import { TableSelection } from '../../libs/s2sp/src/data-plane/table-selection';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';

function answer(selection: TableSelection): {
  chunks: string[];
  parsed: { body: Array<Record<string, unknown>>; total_rows: number; columns_returned: string[] };
} {
  const chunks = [...jsonAnswerChunks(selection)];
  return { chunks, parsed: JSON.parse(chunks.join('')) };
}

describe('the JSON answer of a fetch', () => {
  const rows = [{ a: 1, b: 'x' }, { a: 2, b: 'y', _row_id: 99 }, {}, { a: 4, b: 'w"\\' }];
  const table = ResourceTable.of(rows);

  test('every column: each row whole, _row_id first and ours even when the tool row has its own', () => {
    const { parsed, chunks } = answer(new TableSelection(table, null, ['a', 'b'], true));
    assert.equal(chunks.length, 1, 'a small answer is one chunk');
    assert.deepEqual(parsed.body, [
      { _row_id: 0, a: 1, b: 'x' },
      { _row_id: 1, a: 2, b: 'y' },
      { _row_id: 2 },
      { _row_id: 3, a: 4, b: 'w"\\' },
    ]);
    assert.deepEqual(Object.keys(parsed.body[0]), ['_row_id', 'a', 'b']);
    assert.equal(parsed.total_rows, 4);
    assert.deepEqual(parsed.columns_returned, ['_row_id', 'a', 'b']);
  });

  test('chosen rows and columns: only those, in the order asked', () => {
    const { parsed } = answer(new TableSelection(table, [1, 3], ['b'], false));
    assert.deepEqual(parsed.body, [
      { _row_id: 1, b: 'y' },
      { _row_id: 3, b: 'w"\\' },
    ]);
    assert.deepEqual(parsed.columns_returned, ['_row_id', 'b']);
  });

  test('a large answer comes in several bounded chunks that join into the whole', () => {
    const many = Array.from({ length: 20_000 }, (_, index) => ({ name: `row ${index}`, value: index }));
    const { parsed, chunks } = answer(new TableSelection(ResourceTable.of(many), null, ['name', 'value'], true));
    assert.ok(chunks.length > 3, `${chunks.length} chunks`);
    assert.ok(chunks.every((chunk) => chunk.length < 128 * 1024));
    assert.equal(parsed.body.length, 20_000);
    assert.deepEqual(parsed.body[12_345], { _row_id: 12_345, name: 'row 12345', value: 12_345 });
  });
});
