import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConsumerInput, type ConsumerToolArguments } from '../../libs/s2sp/src/protocol/consumer-input';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';

const LIMITS = { maxRows: 3 };
const URL_ = 'http://127.0.0.1:3101/s2sp/data/dK7xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const ABSTRACT = '[{"_row_id":0,"event":"Wind Advisory"},{"_row_id":2,"event":"High Wind Warning"}]';

function refuses(args: ConsumerToolArguments, pattern: RegExp, limits = LIMITS): void {
  assert.throws(
    () => parseConsumerInput(args, limits),
    (error: unknown) => {
      assert.ok(error instanceof S2spToolError, `expected S2spToolError, got ${String(error)}`);
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('parseConsumerInput', () => {
  describe('modes', () => {
    test('async mode: abstract rows + resource_url, no body', () => {
      const input = parseConsumerInput({ abstract_data: ABSTRACT, resource_url: URL_ }, LIMITS);
      assert.deepEqual(input, {
        abstract: [
          { _row_id: 0, event: 'Wind Advisory' },
          { _row_id: 2, event: 'High Wind Warning' },
        ],
        resourceUrl: URL_,
        body: null,
        columnMapping: {},
      });
    });

    test('sync mode: abstract rows + inline body', () => {
      const input = parseConsumerInput(
        { abstract_data: ABSTRACT, body_data: '[{"_row_id":0,"description":"d0"},{"_row_id":2,"description":"d2"}]' },
        LIMITS,
      );
      assert.equal(input.resourceUrl, null);
      assert.deepEqual(input.body, [
        { _row_id: 0, description: 'd0' },
        { _row_id: 2, description: 'd2' },
      ]);
    });

    test('abstract only: no resource_url and no body', () => {
      const input = parseConsumerInput({ abstract_data: ABSTRACT }, LIMITS);
      assert.equal(input.resourceUrl, null);
      assert.equal(input.body, null);
      assert.deepEqual(input.columnMapping, {});
    });

    test('blank optional parameters count as absent', () => {
      const input = parseConsumerInput(
        { abstract_data: ABSTRACT, resource_url: '  ', body_data: '', column_mapping: ' \n' },
        LIMITS,
      );
      assert.equal(input.resourceUrl, null);
      assert.equal(input.body, null);
      assert.deepEqual(input.columnMapping, {});
    });

    test('a blank resource_url with a body is sync mode, not "both"', () => {
      const input = parseConsumerInput({ abstract_data: ABSTRACT, resource_url: ' ', body_data: '[]' }, LIMITS);
      assert.deepEqual(input.body, []);
      assert.equal(input.resourceUrl, null);
    });

    test('both resource_url and body_data → error naming both and the modes', () => {
      refuses(
        { abstract_data: ABSTRACT, resource_url: URL_, body_data: '[]' },
        /either resource_url \(async mode\) or body_data \(sync mode\), not both/,
      );
    });

    test('an empty abstract array is valid', () => {
      assert.deepEqual(parseConsumerInput({ abstract_data: '[]' }, LIMITS).abstract, []);
    });
  });

  describe('rows', () => {
    test('abstract_data that is not JSON → error naming the parameter', () => {
      refuses({ abstract_data: 'event=Wind' }, /^abstract_data is not valid JSON/);
    });

    test('body_data that is not JSON → error naming body_data', () => {
      refuses({ abstract_data: ABSTRACT, body_data: '[{' }, /^body_data is not valid JSON/);
    });

    test('a JSON value other than an array or the compact form → error naming both forms', () => {
      refuses(
        { abstract_data: '{"_row_id":0}' },
        /^abstract_data must be a JSON array of rows, each with an integer _row_id, or the compact form/,
      );
      refuses({ abstract_data: '"rows"' }, /^abstract_data must be a JSON array/);
      refuses({ abstract_data: 'null' }, /^abstract_data must be a JSON array/);
      refuses({ abstract_data: ABSTRACT, body_data: '42' }, /^body_data must be a JSON array/);
    });

    test('an item that is not an object → error with its index', () => {
      refuses({ abstract_data: '[{"_row_id":0}, 5]' }, /^abstract_data\[1\] is not an object/);
      refuses({ abstract_data: '[[0]]' }, /^abstract_data\[0\] is not an object/);
      refuses({ abstract_data: '[null]' }, /^abstract_data\[0\] is not an object/);
      refuses({ abstract_data: '[]', body_data: '[{"_row_id":0},"x"]' }, /^body_data\[1\] is not an object/);
    });

    test('a missing or invalid _row_id → error with the index', () => {
      for (const bad of [
        '{}',
        '{"_row_id":null}',
        '{"_row_id":"0"}',
        '{"_row_id":-1}',
        '{"_row_id":1.5}',
        '{"_row_id":true}',
      ]) {
        refuses(
          { abstract_data: `[{"_row_id":0},${bad}]` },
          /^abstract_data\[1\] has no valid _row_id \(a non-negative integer\)/,
        );
      }
    });

    test('_row_id 0 and large integers are valid', () => {
      const input = parseConsumerInput({ abstract_data: '[{"_row_id":0},{"_row_id":99999}]' }, LIMITS);
      assert.deepEqual(
        input.abstract.map((row) => row._row_id),
        [0, 99999],
      );
    });

    // Found by fuzzing (test/fuzz/parsers.fuzz.test.ts): 2^53 + 1 reads as 2^53, an
    // integer that stands for two ids and that the data plane refuses in row_ids.
    test('a _row_id past the safe integers (9007199254740993) is refused like any invalid one', () => {
      refuses(
        { abstract_data: '[{"_row_id":"__proto__","_row_id":9007199254740993}]' },
        /^abstract_data\[0\] has no valid _row_id/,
      );
      refuses({ abstract_data: '[{"_row_id":1e300}]' }, /^abstract_data\[0\] has no valid _row_id/);
      assert.equal(
        parseConsumerInput({ abstract_data: '[{"_row_id":9007199254740991}]' }, LIMITS).abstract[0]._row_id,
        Number.MAX_SAFE_INTEGER,
      );
    });

    test('a repeated _row_id → error naming it', () => {
      refuses(
        { abstract_data: '[{"_row_id":4},{"_row_id":1},{"_row_id":4}]' },
        /^abstract_data has _row_id 4 more than once/,
      );
      refuses(
        { abstract_data: '[]', body_data: '[{"_row_id":7},{"_row_id":7}]' },
        /^body_data has _row_id 7 more than once/,
      );
    });

    test('exactly maxRows rows is allowed; one more → error with both numbers', () => {
      assert.equal(
        parseConsumerInput({ abstract_data: '[{"_row_id":0},{"_row_id":1},{"_row_id":2}]' }, LIMITS).abstract.length,
        3,
      );
      refuses(
        { abstract_data: '[{"_row_id":0},{"_row_id":1},{"_row_id":2},{"_row_id":3}]' },
        /^abstract_data has 4 rows; at most 3 are allowed/,
      );
      refuses(
        { abstract_data: '[]', body_data: '[{"_row_id":0},{"_row_id":1},{"_row_id":2},{"_row_id":3}]' },
        /^body_data has 4 rows; at most 3 are allowed/,
      );
    });

    test('the row limit is checked before the items (no per-row work on an oversized list)', () => {
      refuses({ abstract_data: '[1,2,3,4]' }, /has 4 rows; at most 3/);
    });
  });

  describe('the compact form of abstract_format "columns"', () => {
    const COMPACT = JSON.stringify({
      columns: ['_row_id', 'event'],
      rows: [
        [0, 'Wind Advisory'],
        [2, 'High Wind Warning'],
      ],
    });

    test('abstract_data in the compact form reads as the same rows as the array form', () => {
      const compact = parseConsumerInput({ abstract_data: COMPACT, resource_url: URL_ }, LIMITS);
      assert.deepEqual(compact, parseConsumerInput({ abstract_data: ABSTRACT, resource_url: URL_ }, LIMITS));
    });

    test('body_data in the compact form (sync mode)', () => {
      const input = parseConsumerInput(
        { abstract_data: COMPACT, body_data: '{"columns":["description","_row_id"],"rows":[["d0",0],["d2",2]]}' },
        LIMITS,
      );
      assert.deepEqual(input.body, [
        { description: 'd0', _row_id: 0 },
        { description: 'd2', _row_id: 2 },
      ]);
    });

    test('its _row_id values are checked like those of the array form', () => {
      refuses(
        { abstract_data: '{"columns":["_row_id"],"rows":[[1],[1]]}' },
        /^abstract_data has _row_id 1 more than once/,
      );
      refuses({ abstract_data: '{"columns":["_row_id"],"rows":[["0"]]}' }, /^abstract_data\[0\] has no valid _row_id/);
    });

    test('its shape and row limit are checked, with errors naming the parameter', () => {
      refuses({ abstract_data: '{"columns":["event"],"rows":[]}' }, /^abstract_data\.columns must include _row_id/);
      refuses(
        { abstract_data: '[]', body_data: '{"columns":["_row_id"],"rows":[[0,1]]}' },
        /^body_data\.rows\[0\] must be an array of 1 values/,
      );
      refuses(
        { abstract_data: '{"columns":["_row_id"],"rows":[[0],[1],[2],[3]]}' },
        /^abstract_data has 4 rows; at most 3 are allowed/,
      );
    });
  });

  describe('column_mapping', () => {
    test('a JSON object of non-empty names is returned as is', () => {
      const input = parseConsumerInput(
        { abstract_data: ABSTRACT, column_mapping: '{"event":"label","severity":"level"}' },
        LIMITS,
      );
      assert.deepEqual(input.columnMapping, { event: 'label', severity: 'level' });
    });

    test('{} is an empty mapping', () => {
      assert.deepEqual(parseConsumerInput({ abstract_data: ABSTRACT, column_mapping: '{}' }, LIMITS).columnMapping, {});
    });

    test('not JSON → error with an example', () => {
      refuses(
        { abstract_data: ABSTRACT, column_mapping: 'event:label' },
        /^column_mapping is not valid JSON: pass an object like/,
      );
    });

    test('not an object, or non-string / empty targets → error', () => {
      for (const bad of [
        '[]',
        '["event"]',
        '"event"',
        '5',
        'null',
        '{"event":1}',
        '{"event":""}',
        '{"event":null}',
        '{"event":{"to":"x"}}',
      ]) {
        refuses(
          { abstract_data: ABSTRACT, column_mapping: bad },
          /^column_mapping must be a JSON object mapping column names to non-empty new names/,
        );
      }
    });

    test('renaming from or to _row_id → error', () => {
      refuses({ abstract_data: ABSTRACT, column_mapping: '{"_row_id":"id"}' }, /must not rename to or from _row_id/);
      refuses({ abstract_data: ABSTRACT, column_mapping: '{"event":"_row_id"}' }, /must not rename to or from _row_id/);
    });
  });
});
