import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyColumnMapping, mergeRows } from '../../libs/s2sp/src/protocol/merge-rows';
import { refuses } from '../support/s2sp-tool-error';

const ABSTRACT = [
  { _row_id: 5, event: 'High Wind Warning', severity: 'Severe' },
  { _row_id: 0, event: 'Wind Advisory', severity: 'Moderate' },
];
const BODY = [
  { _row_id: 0, description: 'North winds 25-35 mph' },
  { _row_id: 3, description: 'not selected' },
  { _row_id: 5, description: 'Gusts up to 55 mph' },
];

describe('mergeRows', () => {
  test('joins by _row_id in the order of the abstract rows; unselected body rows are dropped', () => {
    assert.deepEqual(mergeRows(ABSTRACT, BODY, {}), [
      { _row_id: 5, event: 'High Wind Warning', severity: 'Severe', description: 'Gusts up to 55 mph' },
      { _row_id: 0, event: 'Wind Advisory', severity: 'Moderate', description: 'North winds 25-35 mph' },
    ]);
  });

  test('a full-data body (abstract columns too): the abstract values the agent passed win, in their place', () => {
    const fullBody = [
      { _row_id: 5, event: 'High Wind Warning', severity: 'Extreme', description: 'Gusts up to 55 mph' },
      { _row_id: 0, event: 'Wind Advisory', severity: 'Moderate', description: 'North winds 25-35 mph' },
    ];
    const edited = [{ _row_id: 5, event: 'High Wind Warning', severity: 'Severe (edited)' }];
    const [merged] = mergeRows(edited, fullBody, {});
    assert.deepEqual(merged, {
      _row_id: 5,
      event: 'High Wind Warning',
      severity: 'Severe (edited)',
      description: 'Gusts up to 55 mph',
    });
    assert.deepEqual(Object.keys(merged), ['_row_id', 'event', 'severity', 'description']);
  });

  test('body null (no data plane) → copies of the abstract rows', () => {
    const merged = mergeRows(ABSTRACT, null, {});
    assert.deepEqual(merged, ABSTRACT);
    assert.notEqual(merged[0], ABSTRACT[0]);
  });

  test('empty abstract → empty result, whatever the body', () => {
    assert.deepEqual(mergeRows([], BODY, {}), []);
    assert.deepEqual(mergeRows([], [], {}), []);
  });

  test('a selected row missing from the body is an error naming every missing _row_id', () => {
    refuses(
      () => mergeRows([{ _row_id: 1 }, { _row_id: 0 }, { _row_id: 9 }], BODY, {}),
      /^The body has no row for _row_id 1, 9: the abstract rows and the body do not belong together\.$/,
    );
  });

  test('an empty body for a non-empty abstract is an error (never a silent drop)', () => {
    refuses(() => mergeRows([{ _row_id: 0 }], [], {}), /no row for _row_id 0/);
  });

  test('does not modify its inputs', () => {
    const abstract = structuredClone(ABSTRACT);
    const body = structuredClone(BODY);
    mergeRows(abstract, body, { event: 'label' });
    assert.deepEqual(abstract, ABSTRACT);
    assert.deepEqual(body, BODY);
  });

  test('applies the column mapping after the merge (body columns can be renamed)', () => {
    assert.deepEqual(mergeRows(ABSTRACT, BODY, { description: 'text', event: 'label' }), [
      { _row_id: 5, severity: 'Severe', label: 'High Wind Warning', text: 'Gusts up to 55 mph' },
      { _row_id: 0, severity: 'Moderate', label: 'Wind Advisory', text: 'North winds 25-35 mph' },
    ]);
  });
});

describe('applyColumnMapping', () => {
  const ROWS = [
    { _row_id: 0, event: 'A', severity: 'Minor' },
    { _row_id: 1, event: 'B', severity: 'Severe' },
  ];

  test('empty mapping → the same rows (a new array)', () => {
    const out = applyColumnMapping(ROWS, {});
    assert.deepEqual(out, ROWS);
    assert.notEqual(out, ROWS);
  });

  test('renames a column, keeping values and other columns', () => {
    assert.deepEqual(applyColumnMapping(ROWS, { event: 'category' }), [
      { _row_id: 0, severity: 'Minor', category: 'A' },
      { _row_id: 1, severity: 'Severe', category: 'B' },
    ]);
  });

  test('swapping two columns works', () => {
    assert.deepEqual(applyColumnMapping(ROWS, { event: 'severity', severity: 'event' }), [
      { _row_id: 0, severity: 'A', event: 'Minor' },
      { _row_id: 1, severity: 'B', event: 'Severe' },
    ]);
  });

  test('mapping a column to its own name keeps it', () => {
    assert.deepEqual(
      applyColumnMapping(ROWS, { event: 'event' }).map((row) => row.event),
      ['A', 'B'],
    );
  });

  test('a source column no row has → error naming it and listing the columns', () => {
    refuses(
      () => applyColumnMapping(ROWS, { colour: 'c', event: 'e' }),
      /^column_mapping names column colour, which the rows do not have\. Columns: _row_id, event, severity\.$/,
    );
  });

  test('a source column only some rows have is renamed where present', () => {
    const out = applyColumnMapping([{ _row_id: 0, a: 1 }, { _row_id: 1 }], { a: 'b' });
    assert.deepEqual(out, [{ _row_id: 0, b: 1 }, { _row_id: 1 }]);
  });

  test('no rows → nothing to check, empty result', () => {
    assert.deepEqual(applyColumnMapping([], { anything: 'x' }), []);
  });

  test('renaming onto an existing column → error naming both', () => {
    refuses(
      () => applyColumnMapping(ROWS, { event: 'severity' }),
      /^column_mapping renames event to severity, but the rows already have a column severity\.$/,
    );
  });

  test('two sources onto one target → error', () => {
    refuses(
      () => applyColumnMapping(ROWS, { event: 'x', severity: 'x' }),
      /renames severity to x, but the rows already have a column x/,
    );
  });

  test('does not modify the input rows', () => {
    const rows = structuredClone(ROWS);
    applyColumnMapping(rows, { event: 'category' });
    assert.deepEqual(rows, ROWS);
  });

  test('a column literally named "__proto__" in agent-supplied rows stays a column and does not become the prototype', () => {
    // abstract_data comes from the agent; JSON.parse makes "__proto__" an own property.
    const rows = JSON.parse('[{"_row_id":0,"__proto__":{"injected":true},"event":"A"}]') as Array<
      Record<string, unknown>
    >;
    const [out] = applyColumnMapping(rows, { event: 'label' });
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal((out as Record<string, unknown>).injected, undefined);
    assert.equal(JSON.stringify(out), '{"_row_id":0,"__proto__":{"injected":true},"label":"A"}');
  });
});
