import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { columnsOf, isRow, project, ROW_ID } from '../../libs/s2sp/src/protocol/row';

describe('ROW_ID', () => {
  test('is the reconciliation key of the S2SP wire format', () => {
    assert.equal(ROW_ID, '_row_id');
  });
});

describe('isRow', () => {
  test('plain objects are rows, including empty ones and Object.create(null)', () => {
    assert.equal(isRow({}), true);
    assert.equal(isRow({ event: 'Wind Advisory' }), true);
    assert.equal(isRow(Object.create(null)), true);
  });

  test('arrays, null and primitives are not rows', () => {
    for (const value of [null, undefined, [], [{ a: 1 }], 0, 1, '', 'row', true, false]) {
      assert.equal(isRow(value), false, JSON.stringify(value) ?? String(value));
    }
  });
});

describe('columnsOf', () => {
  test('no rows → no columns', () => {
    assert.deepEqual(columnsOf([]), []);
  });

  test('every column across the rows, in first-seen order, each once', () => {
    const rows = [
      { b: 1, a: 2 },
      { a: 3, c: 4 },
      { d: 5, b: 6 },
    ];
    assert.deepEqual(columnsOf(rows), ['b', 'a', 'c', 'd']);
  });

  test('keeps _row_id if the rows have it (callers filter it out)', () => {
    assert.deepEqual(columnsOf([{ _row_id: 0, event: 'x' }]), ['_row_id', 'event']);
  });

  test('columns with null / undefined values still count', () => {
    assert.deepEqual(columnsOf([{ a: null, b: undefined }]), ['a', 'b']);
  });

  test('empty rows contribute nothing', () => {
    assert.deepEqual(columnsOf([{}, { x: 1 }, {}]), ['x']);
  });
});

describe('project', () => {
  const row = { event: 'Flood Watch', severity: 'Minor', urgency: 'Expected', area: 'CA' };

  test('_row_id first, then the given columns in the given order', () => {
    const out = project(row, 7, ['urgency', 'event']);
    assert.deepEqual(out, { _row_id: 7, urgency: 'Expected', event: 'Flood Watch' });
    assert.deepEqual(Object.keys(out), ['_row_id', 'urgency', 'event']);
  });

  test('no columns → only _row_id', () => {
    assert.deepEqual(project(row, 0, []), { _row_id: 0 });
  });

  test('columns the row does not have are skipped, not set to undefined', () => {
    const out = project(row, 1, ['event', 'missing']);
    assert.deepEqual(out, { _row_id: 1, event: 'Flood Watch' });
    assert.equal(Object.prototype.hasOwnProperty.call(out, 'missing'), false);
  });

  test('inherited properties are not columns', () => {
    const out = project({ own: 1 }, 2, ['own', 'toString', 'hasOwnProperty']);
    assert.deepEqual(out, { _row_id: 2, own: 1 });
  });

  test('null and falsy values are kept', () => {
    assert.deepEqual(project({ a: null, b: 0, c: '', d: false }, 3, ['a', 'b', 'c', 'd']), {
      _row_id: 3,
      a: null,
      b: 0,
      c: '',
      d: false,
    });
  });

  test('the row id given wins over a _row_id the source row already had', () => {
    assert.deepEqual(project({ _row_id: 99, a: 1 }, 4, ['a']), { _row_id: 4, a: 1 });
  });

  test('returns a new object and leaves the source row untouched', () => {
    const source = { a: 1, b: 2 };
    const out = project(source, 5, ['a']);
    assert.notEqual(out, source);
    assert.deepEqual(source, { a: 1, b: 2 });
  });

  test('a column literally named "__proto__" (as JSON.parse produces it) stays an own, serialisable column', () => {
    // JSON.parse creates an own property "__proto__"; assigning it with out[column] = … would
    // instead replace the output's prototype and silently drop the column from JSON.
    const source = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>;
    const out = project(source, 0, ['__proto__', 'a']);
    assert.equal(Object.prototype.hasOwnProperty.call(out, '__proto__'), true);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(JSON.stringify(out), '{"_row_id":0,"__proto__":{"x":1},"a":2}');
  });
});
