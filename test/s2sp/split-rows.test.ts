import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { refuses } from '../support/s2sp-tool-error';

const ROWS = [
  {
    event: 'Wind Advisory',
    severity: 'Moderate',
    urgency: 'Expected',
    description: 'North winds 25-35 mph',
    instruction: 'Secure objects',
  },
  {
    event: 'Flood Watch',
    severity: 'Minor',
    urgency: 'Future',
    description: 'Heavy rain',
    instruction: 'Move to higher ground',
  },
  {
    event: 'Heat Advisory',
    severity: 'Severe',
    urgency: 'Immediate',
    description: 'Temperatures to 110',
    instruction: 'Drink water',
  },
];

describe('splitRows', () => {
  test('abstract gets _row_id + the abstract columns, body gets _row_id + every other column', () => {
    const split = splitRows(ROWS, ['event', 'severity']);
    assert.deepEqual(split.columns, ['event', 'severity', 'urgency', 'description', 'instruction']);
    assert.deepEqual(split.abstractDomains, ['event', 'severity']);
    assert.deepEqual(split.bodyDomains, ['urgency', 'description', 'instruction']);
    assert.deepEqual(split.abstract, [
      { _row_id: 0, event: 'Wind Advisory', severity: 'Moderate' },
      { _row_id: 1, event: 'Flood Watch', severity: 'Minor' },
      { _row_id: 2, event: 'Heat Advisory', severity: 'Severe' },
    ]);
    assert.deepEqual(split.body, [
      { _row_id: 0, urgency: 'Expected', description: 'North winds 25-35 mph', instruction: 'Secure objects' },
      { _row_id: 1, urgency: 'Future', description: 'Heavy rain', instruction: 'Move to higher ground' },
      { _row_id: 2, urgency: 'Immediate', description: 'Temperatures to 110', instruction: 'Drink water' },
    ]);
  });

  test('rows are numbered 0..n-1 in input order', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ n: i, text: `row ${i}` }));
    const split = splitRows(rows, ['n']);
    assert.deepEqual(
      split.abstract.map((row) => row._row_id),
      rows.map((_, i) => i),
    );
    assert.deepEqual(
      split.body.map((row) => row._row_id),
      rows.map((_, i) => i),
    );
    assert.deepEqual(
      split.abstract.map((row) => row.n),
      rows.map((_, i) => i),
    );
  });

  test('abstract columns keep the requested order, not the column order', () => {
    const split = splitRows(ROWS, ['instruction', 'event']);
    assert.deepEqual(split.abstractDomains, ['instruction', 'event']);
    assert.deepEqual(Object.keys(split.abstract[0]), ['_row_id', 'instruction', 'event']);
    assert.deepEqual(split.bodyDomains, ['severity', 'urgency', 'description']);
  });

  test('abstract and body columns partition the columns; merging them gives back every row', () => {
    const split = splitRows(ROWS, ['urgency']);
    assert.deepEqual([...split.abstractDomains, ...split.bodyDomains].sort(), [...split.columns].sort());
    for (const [i, row] of ROWS.entries()) {
      const { _row_id: a, ...abstractPart } = split.abstract[i];
      const { _row_id: b, ...bodyPart } = split.body[i];
      assert.equal(a, i);
      assert.equal(b, i);
      assert.deepEqual({ ...abstractPart, ...bodyPart }, row);
    }
  });

  test('every column abstract → body rows hold only _row_id', () => {
    const split = splitRows(ROWS, ['event', 'severity', 'urgency', 'description', 'instruction']);
    assert.deepEqual(split.bodyDomains, []);
    assert.deepEqual(split.body, [{ _row_id: 0 }, { _row_id: 1 }, { _row_id: 2 }]);
  });

  test('no abstract columns → abstract rows hold only _row_id, body holds everything', () => {
    const split = splitRows(ROWS, []);
    assert.deepEqual(split.abstract, [{ _row_id: 0 }, { _row_id: 1 }, { _row_id: 2 }]);
    assert.deepEqual(split.bodyDomains, split.columns);
  });

  test('sparse rows: a column any row has is valid; rows lacking it omit it', () => {
    const rows = [{ event: 'A', extra: 'x' }, { event: 'B' }];
    const split = splitRows(rows, ['extra']);
    assert.deepEqual(split.abstract, [{ _row_id: 0, extra: 'x' }, { _row_id: 1 }]);
    assert.deepEqual(split.body, [
      { _row_id: 0, event: 'A' },
      { _row_id: 1, event: 'B' },
    ]);
  });

  test('a _row_id already in the data is not a column and is replaced by the row index', () => {
    const rows = [{ _row_id: 42, event: 'A', text: 't' }];
    const split = splitRows(rows, ['event']);
    assert.deepEqual(split.columns, ['event', 'text']);
    assert.deepEqual(split.abstract, [{ _row_id: 0, event: 'A' }]);
    assert.deepEqual(split.body, [{ _row_id: 0, text: 't' }]);
  });

  test('does not modify the input rows or the requested list', () => {
    const rows = structuredClone(ROWS);
    const domains = ['event'];
    const split = splitRows(rows, domains);
    assert.deepEqual(rows, ROWS);
    assert.deepEqual(domains, ['event']);
    assert.notEqual(split.abstractDomains, domains);
  });

  test('an unknown column is an error naming it and listing the available columns', () => {
    refuses(
      () => splitRows(ROWS, ['event', 'colour']),
      /^Unknown column in abstract_domains: colour\. Available columns: event, severity, urgency, description, instruction\.$/,
    );
  });

  test('several unknown columns: plural, all named', () => {
    refuses(() => splitRows(ROWS, ['colour', 'event', 'size']), /^Unknown columns in abstract_domains: colour, size\./);
  });

  test('_row_id is not a column that can be made abstract', () => {
    refuses(
      () => splitRows([{ _row_id: 0, event: 'A' }], ['_row_id']),
      /Unknown column in abstract_domains: _row_id\. Available columns: event\./,
    );
  });

  test('no rows: an empty result is fine without abstract columns', () => {
    assert.deepEqual(
      { ...splitRows([], []) },
      { columns: [], abstractDomains: [], bodyDomains: [], abstract: [], rows: [], body: [] },
    );
  });

  test('no rows: asking for a column gives an empty answer, not an error (no columns can be checked)', () => {
    assert.deepEqual(
      { ...splitRows([], ['event']) },
      { columns: [], abstractDomains: ['event'], bodyDomains: [], abstract: [], rows: [], body: [] },
    );
  });

  test('rows without any column: asking for a column names the problem', () => {
    refuses(
      () => splitRows([{}, {}], ['event']),
      /Unknown column in abstract_domains: event\. Available columns: \(the rows have no columns\)\./,
    );
  });
});
