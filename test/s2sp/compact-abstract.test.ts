import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAbstractFormat } from '../../libs/s2sp/src/protocol/abstract-format';
import { rowsFromColumnar, toColumnar } from '../../libs/s2sp/src/protocol/columnar-rows';
import { resourcePayload } from '../../libs/s2sp/src/protocol/resource-payload';
import { refuses } from '../support/s2sp-tool-error';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';

const ROWS = [
  { event: 'Wind Advisory', severity: 'Moderate', description: 'North winds 25-35 mph' },
  { event: 'Flood Watch', severity: 'Minor', description: 'Heavy rain' },
];
const URL_ = 'http://127.0.0.1:3101/s2sp/data/dK7xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const LIMITS = { maxRows: 3 };

describe('parseAbstractFormat', () => {
  test('absent means the default layout, with or without abstract_domains', () => {
    assert.equal(parseAbstractFormat(undefined, true), 'rows');
    assert.equal(parseAbstractFormat(undefined, false), 'rows');
    assert.equal(parseAbstractFormat('rows', false), 'rows');
  });

  test('"columns" with abstract_domains asks for the compact layout', () => {
    assert.equal(parseAbstractFormat('columns', true), 'columns');
  });

  test('an unknown value is a clear error naming the allowed ones', () => {
    refuses(() => parseAbstractFormat('table', true), /^abstract_format must be one of "rows", "columns"\.$/);
    refuses(() => parseAbstractFormat(3, true), /^abstract_format must be one of/);
  });

  test('"columns" without abstract_domains is an error: a plain call has no S2SP answer to lay out', () => {
    refuses(() => parseAbstractFormat('columns', false), /give abstract_domains too/);
  });
});

describe('toColumnar and rowsFromColumnar', () => {
  test('_row_id comes first, then the given columns; a column a row lacks is null', () => {
    const columnar = toColumnar([{ _row_id: 0, event: 'Flood Watch' }, { _row_id: 1 }], ['event']);
    assert.deepEqual(columnar, {
      columns: ['_row_id', 'event'],
      rows: [
        [0, 'Flood Watch'],
        [1, null],
      ],
    });
  });

  test('the compact layout reads back into the rows it came from', () => {
    const rows = splitRows(ROWS, ['event']).abstract;
    assert.deepEqual(rowsFromColumnar('abstract_data', toColumnar(rows, ['event']), LIMITS), rows);
  });

  test('a column named __proto__ stays an own column', () => {
    const [row] = rowsFromColumnar('abstract_data', { columns: ['_row_id', '__proto__'], rows: [[0, 'x']] }, LIMITS);
    assert.deepEqual(Object.keys(row), ['_row_id', '__proto__']);
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
  });

  test('malformed compact input is a clear error naming the parameter and the part', () => {
    refuses(
      () => rowsFromColumnar('abstract_data', [], LIMITS),
      /^abstract_data in the compact form must be an object/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: 'event', rows: [] }, LIMITS),
      /^abstract_data\.columns must be an array of column names/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['_row_id', 1], rows: [] }, LIMITS),
      /^abstract_data\.columns must be an array/,
    );
    refuses(
      () => rowsFromColumnar('body_data', { columns: ['_row_id', 'a', 'a'], rows: [] }, LIMITS),
      /^body_data\.columns names a column more than once/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['event'], rows: [] }, LIMITS),
      /^abstract_data\.columns must include _row_id/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['_row_id'], rows: {} }, LIMITS),
      /^abstract_data\.rows must be an array/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['_row_id', 'event'], rows: [[0]] }, LIMITS),
      /^abstract_data\.rows\[0\] must be an array of 2 values/,
    );
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['_row_id'], rows: [[0], {}] }, LIMITS),
      /^abstract_data\.rows\[1\] must be an array of 1 values/,
    );
  });

  test('more rows than the limit is refused before any row is read', () => {
    refuses(
      () => rowsFromColumnar('abstract_data', { columns: ['_row_id'], rows: [1, 2, 3, 4] }, LIMITS),
      /^abstract_data has 4 rows; at most 3 are allowed/,
    );
  });
});

describe('resourcePayload', () => {
  const split = () => splitRows(ROWS, ['event']);

  test('the default async answer is the reference envelope, unchanged', () => {
    assert.deepEqual(
      JSON.stringify(resourcePayload(split(), 'rows', URL_)),
      JSON.stringify({
        total_rows: 2,
        columns: ['event', 'severity', 'description'],
        abstract_domains: ['event'],
        body_domains: ['severity', 'description'],
        resource_url: URL_,
        abstract: [
          { _row_id: 0, event: 'Wind Advisory' },
          { _row_id: 1, event: 'Flood Watch' },
        ],
      }),
    );
  });

  test('the default sync answer carries the body rows instead of a resource_url', () => {
    const payload = resourcePayload(split(), 'rows', undefined);
    assert.deepEqual(Object.keys(payload), [
      'total_rows',
      'columns',
      'abstract_domains',
      'body_domains',
      'abstract',
      'body',
    ]);
    assert.deepEqual(payload.body, [
      { _row_id: 0, severity: 'Moderate', description: 'North winds 25-35 mph' },
      { _row_id: 1, severity: 'Minor', description: 'Heavy rain' },
    ]);
  });

  test('the compact async answer has the rows as arrays and no list the answer implies', () => {
    assert.deepEqual(
      JSON.stringify(resourcePayload(split(), 'columns', URL_)),
      JSON.stringify({
        total_rows: 2,
        body_domains: ['severity', 'description'],
        resource_url: URL_,
        abstract: {
          columns: ['_row_id', 'event'],
          rows: [
            [0, 'Wind Advisory'],
            [1, 'Flood Watch'],
          ],
        },
      }),
    );
  });

  test('the compact sync answer lays out the body the same way; its columns are the body domains', () => {
    assert.deepEqual(resourcePayload(split(), 'columns', undefined), {
      total_rows: 2,
      abstract: {
        columns: ['_row_id', 'event'],
        rows: [
          [0, 'Wind Advisory'],
          [1, 'Flood Watch'],
        ],
      },
      body: {
        columns: ['_row_id', 'severity', 'description'],
        rows: [
          [0, 'Moderate', 'North winds 25-35 mph'],
          [1, 'Minor', 'Heavy rain'],
        ],
      },
    });
  });

  test('the compact answer is shorter than the default for the same rows', () => {
    const many = Array.from({ length: 50 }, (_, index) => ({
      event: `Event ${index}`,
      severity: 'Minor',
      description: 'text',
    }));
    const compact = JSON.stringify(resourcePayload(splitRows(many, ['event', 'severity']), 'columns', URL_));
    const standard = JSON.stringify(resourcePayload(splitRows(many, ['event', 'severity']), 'rows', URL_));
    assert.ok(compact.length < standard.length * 0.7, `${compact.length} vs ${standard.length} characters`);
  });
});
