import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fromStruct, PredicateSyntaxError, toStruct, type JsonObject } from '@s2sp/contracts';
import { evaluatePredicate, parsePredicate, PREDICATE_OPS } from '@s2sp/contracts/internal';
import { toJsonValue } from '../../libs/contracts/src/plain-json';
import { parseAbstractDomains } from '../../libs/s2sp/src/protocol/abstract-domains';
import { parseConsumerInput } from '../../libs/s2sp/src/protocol/consumer-input';
import { ROW_ID } from '../../libs/s2sp/src/protocol/row';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';
import {
  anyString,
  fuzz,
  fuzzTimeout,
  jsonText,
  leafText,
  objectText,
  PROTOTYPE_KEYS,
  quotedJson,
} from '../support/fuzz';

// Invariants of the parsers that take untrusted input (each is also its test's name):
// they answer with a value or their own error type, never another exception, and
// what they accept keeps the shape their callers rely on.

/** Throws unless `error` is an instance of `type`: the only failure a parser may report. */
function onlyThrows(type: new (...args: never[]) => Error, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof type))
      throw new assert.AssertionError({ message: `expected ${type.name}, got ${String(error)}`, actual: error });
  }
}

/** Damage to text: a cut, a dropped or a doubled character. */
const damaged = (text: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(text, fc.nat(), fc.constantFrom('cut', 'drop', 'double')).map(([value, at, how]) => {
    const i = at % (value.length + 1);
    if (how === 'cut') return value.slice(0, i);
    if (how === 'drop') return value.slice(0, i) + value.slice(i + 1);
    return value.slice(0, i) + value.slice(i, i + 1) + value.slice(i);
  });

const COLUMNS = ['event', 'severity', 'area', ...PROTOTYPE_KEYS, ROW_ID];
const anyJson = jsonText(COLUMNS);
const rowIdText = fc.oneof(
  { weight: 8, arbitrary: fc.nat({ max: 50 }).map(String) },
  { weight: 1, arbitrary: leafText },
);
const rowText = fc
  .tuple(rowIdText, fc.array(fc.tuple(fc.constantFrom(...COLUMNS), anyJson), { maxLength: 4 }))
  .map(([rowId, members]) => objectText([[ROW_ID, rowId], ...members]));
/**
 * The compact layout of abstract_format "columns": mostly _row_id then distinct
 * columns and rows of one value per column, sometimes any names and any rows.
 */
const compactRowsText = fc
  .oneof(
    {
      weight: 3,
      arbitrary: fc
        .uniqueArray(fc.constantFrom(...COLUMNS.filter((column) => column !== ROW_ID)), { maxLength: 4 })
        .chain((others) =>
          fc.tuple(
            fc.constant([ROW_ID, ...others]),
            fc.array(
              fc
                .tuple(rowIdText, fc.array(anyJson, { minLength: others.length, maxLength: others.length }))
                .map(([id, values]) => [id, ...values]),
              { maxLength: 6 },
            ),
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.array(fc.constantFrom(...COLUMNS), { maxLength: 5 }),
        fc.array(fc.array(fc.oneof(rowIdText, anyJson), { maxLength: 5 }), { maxLength: 6 }),
      ),
    },
  )
  .map(([columns, rows]) =>
    objectText([
      ['columns', JSON.stringify(columns)],
      ['rows', `[${rows.map((values) => `[${values.join(',')}]`).join(',')}]`],
    ]),
  );
const rowsText = fc.oneof(
  { weight: 6, arbitrary: fc.array(rowText, { maxLength: 6 }).map((rows) => `[${rows.join(',')}]`) },
  { weight: 3, arbitrary: compactRowsText },
  { weight: 1, arbitrary: damaged(compactRowsText) },
  { weight: 1, arbitrary: anyJson },
  { weight: 1, arbitrary: anyString },
  { weight: 1, arbitrary: damaged(fc.array(rowText, { maxLength: 3 }).map((rows) => `[${rows.join(',')}]`)) },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '\n') },
);
const mappingText = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.constantFrom(...COLUMNS),
          fc.oneof(fc.constantFrom(...COLUMNS, 'renamed', '').map(quotedJson), leafText),
        ),
        { maxLength: 4 },
      )
      .map(objectText),
  },
  { weight: 1, arbitrary: anyJson },
  { weight: 1, arbitrary: anyString },
);
const CONSUMER_LIMITS = { maxRows: 4 };

/** A predicate-like JSON text: mostly well-formed, with wrong members, ops and shapes mixed in. */
const { predicate: predicateText } = fc.letrec<{ predicate: string; comparison: string }>((tie) => ({
  predicate: fc.oneof(
    { maxDepth: 4, depthSize: 'small', withCrossShrink: true },
    tie('comparison'),
    fc
      .tuple(fc.constantFrom('and', 'or'), fc.array(tie('predicate'), { maxLength: 3 }))
      .map(([key, items]) => objectText([[key, `[${items.join(',')}]`]])),
    tie('predicate').map((inner) => objectText([['not', inner]])),
    fc
      .tuple(fc.constantFrom('and', 'or', 'not'), tie('predicate'), fc.constantFrom('field', 'op', ...PROTOTYPE_KEYS))
      .map(([key, inner, extra]) =>
        objectText([
          [key, `[${inner}]`],
          [extra, '1'],
        ]),
      ),
    anyJson,
  ),
  comparison: fc
    .record(
      {
        field: fc.oneof(fc.constantFrom(...COLUMNS, 'a.b', 'area.code', '', 'a..b').map(quotedJson), leafText),
        op: fc.oneof(fc.constantFrom(...PREDICATE_OPS, 'EQ', 'like').map(quotedJson), leafText),
        value: anyJson,
        extra: fc.constantFrom(...PROTOTYPE_KEYS, 'values'),
      },
      { requiredKeys: ['field', 'op', 'value'] },
    )
    .map(({ extra, ...members }) =>
      objectText([...Object.entries(members), ...(extra ? ([[extra, 'null']] as const) : [])]),
    ),
}));
/** Arrays nested `depth` deep around 1. */
const nestedArrayText = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
/** `not`s, or a comparison value, nested far deeper than any planner writes, the way a hostile one could. */
const deepPredicateText = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean())
  .map(([depth, inValue]) =>
    inValue
      ? `{"field":"event","op":"eq","value":${nestedArrayText(depth)}}`
      : `${'{"not":'.repeat(depth)}{"field":"event","op":"eq","value":1}${'}'.repeat(depth)}`,
  );
const rowObject = fc.oneof(
  {
    weight: 9,
    arbitrary: anyJson
      .map((text) => JSON.parse(text) as unknown)
      .map((value) =>
        value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { event: value },
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 20_000 })
      .map((depth) => ({ event: JSON.parse(nestedArrayText(depth)) as unknown })),
  },
);

/** The rows a consumer parameter's text stands for: a JSON array of rows, or the compact layout read independently. */
function rowsSent(text: string): unknown {
  const sent = JSON.parse(text) as unknown;
  if (Array.isArray(sent)) return sent;
  const { columns, rows } = sent as { columns: string[]; rows: unknown[][] };
  return rows.map((values) => Object.fromEntries(columns.map((column, position) => [column, values[position]])));
}

describe('fuzz: parsers of untrusted input', () => {
  test(
    'parseConsumerInput returns rows with distinct non-negative integer _row_id and a string-to-string mapping, or throws S2spToolError',
    { timeout: fuzzTimeout(10) },
    async () => {
      const property = fc.property(
        rowsText,
        fc.option(rowsText),
        fc.option(fc.constantFrom('http://127.0.0.1:1/s2sp/data/x', '', ' ')),
        fc.option(mappingText),
        (abstract, body, resourceUrl, mapping) => {
          const args = {
            abstract_data: abstract,
            ...(body === null ? {} : { body_data: body }),
            ...(resourceUrl === null ? {} : { resource_url: resourceUrl }),
            ...(mapping === null ? {} : { column_mapping: mapping }),
          };
          onlyThrows(S2spToolError, () => {
            const input = parseConsumerInput(args, CONSUMER_LIMITS);
            assert.ok(input.resourceUrl === null || input.body === null, 'never both modes');
            for (const rows of [input.abstract, input.body ?? []]) {
              assert.ok(rows.length <= CONSUMER_LIMITS.maxRows);
              const ids = rows.map((row) => row[ROW_ID]);
              assert.ok(
                ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 0),
                'integer _row_id',
              );
              assert.equal(new Set(ids).size, ids.length, 'distinct _row_id');
            }
            assert.deepEqual(input.abstract, rowsSent(abstract), 'accepted rows are the rows sent');
            for (const row of [...input.abstract, ...(input.body ?? [])])
              assert.equal(Object.getPrototypeOf(row), Object.prototype);
            for (const [source, target] of Object.entries(input.columnMapping)) {
              assert.ok(
                typeof target === 'string' && target !== '' && target !== ROW_ID && source !== ROW_ID,
                `mapping ${source} -> ${String(target)}`,
              );
            }
            assert.equal(Object.getPrototypeOf(input.columnMapping), Object.prototype);
          });
        },
      );
      await fuzz('consumer input', property);
    },
  );

  test(
    'parseAbstractDomains returns null or distinct trimmed non-empty column names within the limits (never _row_id), or throws S2spToolError',
    { timeout: fuzzTimeout(10) },
    async () => {
      const limits = { maxColumns: 4, maxColumnNameLength: 12 };
      const name = fc.oneof(
        fc.constantFrom(...COLUMNS, ' event ', '', ' ', 'x'.repeat(13)),
        fc.string({ maxLength: 14 }),
      );
      const raw = fc.oneof(
        fc.array(name, { maxLength: 6 }).map((names) => names.join(',')),
        fc.array(fc.oneof(name.map(quotedJson), leafText), { maxLength: 6 }).map((items) => `[${items.join(',')}]`),
        damaged(fc.array(name.map(quotedJson), { maxLength: 4 }).map((items) => ` [${items.join(',')}]`)),
        anyString,
        anyJson,
      );
      const property = fc.property(fc.oneof(raw, fc.constantFrom(undefined, null)), (text) => {
        onlyThrows(S2spToolError, () => {
          const columns = parseAbstractDomains(text, limits);
          if (columns === null) {
            assert.ok(text == null || text.trim() === '', 'null only for an absent or blank parameter');
            return;
          }
          assert.ok(columns.length >= 1 && columns.length <= limits.maxColumns);
          assert.equal(new Set(columns).size, columns.length);
          for (const column of columns) {
            assert.ok(
              column !== '' &&
                column === column.trim() &&
                column.length <= limits.maxColumnNameLength &&
                column !== ROW_ID,
              JSON.stringify(column),
            );
          }
        });
      });
      await fuzz('abstract domains', property);
    },
  );

  test(
    'fromStruct(toStruct(o)) gives back every member of a JSON object, __proto__ and constructor included',
    { timeout: fuzzTimeout(10) },
    async () => {
      const object = fc
        .array(fc.tuple(fc.constantFrom(...COLUMNS, 'x'), anyJson), { maxLength: 5 })
        // Written and read once more, so that numbers JSON cannot carry (1e400) are null as in any decoded JSON.
        .map((entries) => JSON.parse(JSON.stringify(JSON.parse(objectText(entries)))) as JsonObject);
      const property = fc.property(object, (value) => {
        const back = fromStruct(toStruct(value));
        assert.equal(Object.getPrototypeOf(back), Object.prototype, 'a plain object comes back');
        assert.equal(JSON.stringify(back), JSON.stringify(value), 'the same JSON, member for member');
      });
      await fuzz('struct codec round trip', property);
    },
  );

  test('toJsonValue writes what JSON.stringify writes, or throws TypeError', { timeout: fuzzTimeout(10) }, async () => {
    const value = fc.oneof(
      fc.anything({
        withBigInt: true,
        withDate: true,
        withNullPrototype: true,
        withSparseArray: true,
        key: fc.oneof(fc.string(), fc.constantFrom(...PROTOTYPE_KEYS)),
      }),
      anyJson.map((text) => JSON.parse(text) as unknown),
    );
    const property = fc.property(value, (input) => {
      onlyThrows(TypeError, () => {
        const json = toJsonValue(input);
        assert.equal(JSON.stringify(json), JSON.stringify(input));
      });
    });
    await fuzz('plain-JSON normalizer', property);
  });

  test(
    'parsePredicate returns a predicate or throws PredicateSyntaxError; evaluating it never throws and obeys not/eq',
    { timeout: fuzzTimeout(10) },
    async () => {
      const property = fc.property(
        fc.oneof({ weight: 9, arbitrary: predicateText }, { weight: 1, arbitrary: deepPredicateText }),
        rowObject,
        (text, row) => {
          onlyThrows(PredicateSyntaxError, () => {
            const predicate = parsePredicate(JSON.parse(text));
            assert.equal(
              JSON.stringify(parsePredicate(JSON.parse(JSON.stringify(predicate)))),
              JSON.stringify(predicate),
              'a parsed predicate parses to itself',
            );
            const matches = evaluatePredicate(predicate, row as Record<string, unknown>);
            assert.equal(typeof matches, 'boolean');
            assert.equal(evaluatePredicate({ not: predicate }, row as Record<string, unknown>), !matches);
            if ('field' in predicate && Object.prototype.hasOwnProperty.call(row, predicate.field)) {
              const value = (row as Record<string, never>)[predicate.field];
              assert.equal(
                evaluatePredicate({ field: predicate.field, op: 'eq', value }, row as Record<string, unknown>),
                true,
                'a row equals its own value',
              );
              assert.equal(
                evaluatePredicate({ field: predicate.field, op: 'ne', value }, row as Record<string, unknown>),
                false,
              );
            }
          });
        },
      );
      await fuzz('filter predicates', property);
    },
  );
});
