import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PredicateSyntaxError } from '../../libs/contracts/src';
import { evaluatePredicate, parsePredicate } from '../../libs/contracts/src/internal';

const rows = [
  {
    _row_id: 0,
    event: 'Wind Advisory',
    severity: 'Moderate',
    onset: '2025-10-14T06:00:00Z',
    tags: ['wind'],
    geo: { zone: 'AKZ317' },
    gust: 45,
  },
  {
    _row_id: 1,
    event: 'Flood Watch',
    severity: 'Minor',
    onset: '2025-10-15T00:00:00Z',
    tags: ['flood'],
    geo: { zone: 'AKZ101' },
    gust: null,
  },
  {
    _row_id: 2,
    event: 'High Wind Warning',
    severity: 'Severe',
    onset: '2025-10-13T18:00:00Z',
    tags: ['wind', 'coastal'],
    gust: 70,
  },
];

function select(predicate: unknown): number[] {
  const parsed = parsePredicate(predicate);
  return rows.filter((row) => evaluatePredicate(parsed, row)).map((row) => row._row_id);
}

describe('FILTER predicate language', () => {
  test('comparison operators', () => {
    assert.deepEqual(select({ field: 'event', op: 'eq', value: 'Flood Watch' }), [1]);
    assert.deepEqual(select({ field: 'event', op: 'ne', value: 'Flood Watch' }), [0, 2]);
    assert.deepEqual(select({ field: 'event', op: 'in', value: ['Wind Advisory', 'High Wind Warning'] }), [0, 2]);
    assert.deepEqual(select({ field: 'event', op: 'contains', value: 'Wind' }), [0, 2]);
    assert.deepEqual(select({ field: 'tags', op: 'contains', value: 'coastal' }), [2]);
    assert.deepEqual(select({ field: 'gust', op: 'gt', value: 45 }), [2]);
    assert.deepEqual(select({ field: 'gust', op: 'gte', value: 45 }), [0, 2]);
    assert.deepEqual(select({ field: 'gust', op: 'lt', value: 50 }), [0]);
    assert.deepEqual(select({ field: 'onset', op: 'lte', value: '2025-10-14T06:00:00Z' }), [0, 2]);
    assert.deepEqual(select({ field: 'gust', op: 'eq', value: null }), [1]);
  });

  test('dotted paths, missing fields and mixed types', () => {
    assert.deepEqual(select({ field: 'geo.zone', op: 'eq', value: 'AKZ101' }), [1]);
    assert.deepEqual(select({ field: 'geo.zone', op: 'ne', value: 'AKZ101' }), [0, 2], 'missing counts as not equal');
    assert.deepEqual(select({ field: 'gust', op: 'gt', value: '10' }), [], 'number vs string never orders');
  });

  test('and / or / not', () => {
    assert.deepEqual(
      select({
        and: [
          { field: 'tags', op: 'contains', value: 'wind' },
          { not: { field: 'severity', op: 'eq', value: 'Severe' } },
        ],
      }),
      [0],
    );
    assert.deepEqual(
      select({
        or: [
          { field: 'severity', op: 'eq', value: 'Minor' },
          { field: 'gust', op: 'gte', value: 70 },
        ],
      }),
      [1, 2],
    );
  });

  test('malformed predicates are rejected with the path of the problem', () => {
    const cases: Array<[unknown, string]> = [
      [[], '$'],
      [{ field: 'x', op: 'like', value: 1 }, '$.op'],
      [{ field: '', op: 'eq', value: 1 }, '$.field'],
      [{ field: 'x', op: 'eq' }, '$.value'],
      [{ field: 'x', op: 'in', value: 'a' }, '$.value'],
      [{ and: [] }, '$.and'],
      [{ or: [{ field: 'x', op: 'eq', value: 1 }, 7] }, '$.or[1]'],
      [{ not: { field: 'x', op: 'eq', value: 1 }, extra: 1 }, '$'],
      [{ field: 'x', op: 'eq', value: 1, flag: true }, '$'],
    ];
    for (const [input, path] of cases) {
      assert.throws(
        () => parsePredicate(input),
        (error: unknown) => error instanceof PredicateSyntaxError && error.path === path,
        JSON.stringify(input),
      );
    }
  });

  // Found by fuzzing (test/fuzz/parsers.fuzz.test.ts): deep nesting ended in a
  // RangeError (stack overflow) from the parser or from comparing the value.
  test('nesting past 64 levels, in operators or in the compared value, is a PredicateSyntaxError, not a stack overflow', () => {
    const comparison = '{"field":"event","op":"eq","value":1}';
    const nots = (depth: number): string => `${'{"not":'.repeat(depth)}${comparison}${'}'.repeat(depth)}`;
    assert.doesNotThrow(() => parsePredicate(JSON.parse(nots(63))));
    assert.throws(
      () => parsePredicate(JSON.parse(nots(64))),
      (error: unknown) => error instanceof PredicateSyntaxError && /nested deeper than 64 levels/.test(error.message),
    );
    assert.throws(() => parsePredicate(JSON.parse(nots(20_000))), PredicateSyntaxError);
    const deepValue = `{"field":"event","op":"eq","value":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`;
    assert.throws(
      () => parsePredicate(JSON.parse(deepValue)),
      (error: unknown) => error instanceof PredicateSyntaxError && error.path === '$.value',
    );
    const fits = JSON.parse(`{"field":"event","op":"eq","value":${'['.repeat(63)}1${']'.repeat(63)}}`);
    assert.equal(evaluatePredicate(parsePredicate(fits), { event: fits.value }), true);
  });
});
