import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFetchRequest } from '../../libs/s2sp/src/data-plane/fetch-request';
import { DataPlaneError } from '../../libs/s2sp/src/data-plane/data-plane-error';

const LIMITS = { maxRowIdsPerFetch: 4, maxColumnsPerRequest: 3, maxColumnNameLength: 8 };

function refuses(body: unknown, status: number, code: string, pattern: RegExp, limits = LIMITS): void {
  assert.throws(
    () => parseFetchRequest(body, limits),
    (error: unknown) => {
      assert.ok(error instanceof DataPlaneError, `expected DataPlaneError, got ${String(error)}`);
      assert.equal(error.status, status);
      assert.equal(error.code, code);
      assert.equal(error.name, 'DataPlaneError');
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('DataPlaneError', () => {
  test('notFound is a 404 RESOURCE_NOT_FOUND that does not say which of unknown/expired/used', () => {
    const error = DataPlaneError.notFound();
    assert.equal(error.status, 404);
    assert.equal(error.code, 'RESOURCE_NOT_FOUND');
    assert.match(error.message, /unknown, expired or already used/);
  });
});

describe('parseFetchRequest', () => {
  describe('everything', () => {
    for (const body of [undefined, null, {}, { row_ids: [], columns: [] }, { row_ids: null, columns: null }]) {
      test(`${JSON.stringify(body) ?? 'undefined'} asks for all rows and all columns`, () => {
        assert.deepEqual(parseFetchRequest(body, LIMITS), { rowIds: [], columns: [] });
      });
    }
  });

  describe('valid selections', () => {
    test('row_ids and columns as given', () => {
      assert.deepEqual(parseFetchRequest({ row_ids: [0, 2, 5], columns: ['headline'] }, LIMITS), {
        rowIds: [0, 2, 5],
        columns: ['headline'],
      });
    });

    test('only row_ids', () => {
      assert.deepEqual(parseFetchRequest({ row_ids: [3] }, LIMITS), { rowIds: [3], columns: [] });
    });

    test('only columns', () => {
      assert.deepEqual(parseFetchRequest({ columns: ['a', 'b'] }, LIMITS), { rowIds: [], columns: ['a', 'b'] });
    });

    test('duplicates are removed, first-seen order kept', () => {
      assert.deepEqual(parseFetchRequest({ row_ids: [5, 0, 5, 0], columns: ['b', 'a', 'b'] }, LIMITS), {
        rowIds: [5, 0],
        columns: ['b', 'a'],
      });
    });

    test('row id 0 and the largest safe integer are valid', () => {
      assert.deepEqual(parseFetchRequest({ row_ids: [0, Number.MAX_SAFE_INTEGER] }, LIMITS).rowIds, [
        0,
        Number.MAX_SAFE_INTEGER,
      ]);
    });

    test('a column name of exactly maxColumnNameLength is valid', () => {
      assert.deepEqual(parseFetchRequest({ columns: ['abcdefgh'] }, LIMITS).columns, ['abcdefgh']);
    });

    test('exactly the limits is valid', () => {
      const parsed = parseFetchRequest({ row_ids: [0, 1, 2, 3], columns: ['a', 'b', 'c'] }, LIMITS);
      assert.deepEqual(parsed, { rowIds: [0, 1, 2, 3], columns: ['a', 'b', 'c'] });
    });

    test('the result does not share arrays with the request body', () => {
      const body = { row_ids: [1], columns: ['a'] };
      const parsed = parseFetchRequest(body, LIMITS);
      parsed.rowIds.push(9);
      parsed.columns.push('z');
      assert.deepEqual(body, { row_ids: [1], columns: ['a'] });
    });
  });

  describe('shape → 400 INVALID_REQUEST', () => {
    test('a body that is not an object', () => {
      for (const body of [[], [0, 1], 'row_ids', 42, true]) {
        refuses(
          body,
          400,
          'INVALID_REQUEST',
          /must be a JSON object: \{"row_ids": \[\.\.\.\], "columns": \[\.\.\.\]\}/,
        );
      }
    });

    test('an unknown field is named', () => {
      refuses({ row_ids: [0], rowIds: [1] }, 400, 'INVALID_REQUEST', /^Unknown field: rowIds\.$/);
    });

    test('several unknown fields: plural, all named', () => {
      refuses({ limit: 5, token: 'x', columns: [] }, 400, 'INVALID_REQUEST', /^Unknown fields: limit, token\.$/);
    });

    test('"__proto__" from JSON.parse is an unknown field, not ignored', () => {
      refuses(JSON.parse('{"__proto__": {"row_ids": [1]}}'), 400, 'INVALID_REQUEST', /Unknown field: __proto__/);
    });

    test('row_ids / columns that are not arrays', () => {
      refuses({ row_ids: 3 }, 400, 'INVALID_REQUEST', /^row_ids must be an array\.$/);
      refuses({ row_ids: '0,1' }, 400, 'INVALID_REQUEST', /^row_ids must be an array\.$/);
      refuses({ row_ids: { 0: 0 } }, 400, 'INVALID_REQUEST', /^row_ids must be an array\.$/);
      refuses({ columns: 'description' }, 400, 'INVALID_REQUEST', /^columns must be an array\.$/);
    });
  });

  describe('row_ids values → 400', () => {
    for (const bad of [
      -1,
      1.5,
      '1',
      null,
      true,
      [1],
      { id: 1 },
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 1,
      -0.5,
    ]) {
      test(`${String(JSON.stringify(bad) ?? bad)} is refused`, () => {
        refuses({ row_ids: [0, bad] }, 400, 'INVALID_REQUEST', /^row_ids must be non-negative integers\.$/);
      });
    }
  });

  describe('columns values → 400', () => {
    for (const bad of ['', 'abcdefghi', 5, null, ['a'], { name: 'a' }]) {
      test(`${JSON.stringify(bad)} is refused with the length limit in the message`, () => {
        refuses(
          { columns: ['a', bad] },
          400,
          'INVALID_REQUEST',
          /^columns must be non-empty strings of at most 8 characters\.$/,
        );
      });
    }
  });

  describe('limits → 413 PAYLOAD_TOO_LARGE', () => {
    test('more row_ids than maxRowIdsPerFetch, with both numbers', () => {
      refuses(
        { row_ids: [0, 1, 2, 3, 4] },
        413,
        'PAYLOAD_TOO_LARGE',
        /^row_ids names 5 rows; at most 4 per fetch \(limit maxRowIdsPerFetch\)\.$/,
      );
    });

    test('more columns than maxColumnsPerRequest, with both numbers', () => {
      refuses(
        { columns: ['a', 'b', 'c', 'd'] },
        413,
        'PAYLOAD_TOO_LARGE',
        /^columns names 4 columns; at most 3 \(limit maxColumnsPerRequest\)\.$/,
      );
    });

    test('the count limit is checked on the raw list, before duplicates are removed', () => {
      refuses({ row_ids: [1, 1, 1, 1, 1] }, 413, 'PAYLOAD_TOO_LARGE', /names 5 rows/);
    });

    test('a huge list is refused on its size alone (no per-item validation first)', () => {
      const huge = new Array(100_000).fill('not-a-number');
      refuses({ row_ids: huge }, 413, 'PAYLOAD_TOO_LARGE', /names 100000 rows; at most 4/);
    });
  });
});
