import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { Readable } from 'node:stream';
import {
  Bool,
  Data,
  DataType,
  Field,
  Float64,
  Int32,
  Int64,
  makeData,
  RecordBatch,
  RecordBatchFileWriter,
  RecordBatchReader,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import { encodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/encode-arrow-stream';
import { decodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';
import { ArrowDecodeError, ArrowResponseTooLargeError } from '../../libs/s2sp/src/data-plane/arrow/arrow-errors';
import { ARROW_STREAM_MEDIA_TYPE } from '../../libs/s2sp/src/data-plane/arrow/arrow-media-type';
import { concat, decode, encodeRows, rejectsWith, viaJson, type Cells } from '../support/arrow-answers';

const MIXED_COLUMNS = [
  'number',
  'text',
  'flag',
  'nullable',
  'sometimes',
  'document',
  'mixed',
  'nonFinite',
  '__proto__',
  'constructor',
  'toString',
  'café ☕',
  '',
  'never',
];
const MIXED_ROWS: Cells[] = [
  {
    number: 1.5,
    text: 'plain',
    flag: true,
    nullable: null,
    sometimes: 'here',
    document: { a: [1, { b: null }], c: 'd' },
    mixed: 1,
    nonFinite: 1,
    __proto__: { polluted: true },
    constructor: 'c0',
    toString: 't0',
    'café ☕': 'é',
    '': 'empty name',
  },
  {
    number: -2e300,
    text: 'unicode é 🎉 \u0000 NUL inside',
    flag: false,
    nullable: null,
    document: [],
    mixed: 'one',
    nonFinite: Number.POSITIVE_INFINITY,
    constructor: null,
    '': null,
  },
  {
    number: null,
    text: null,
    flag: null,
    nullable: undefined,
    sometimes: null,
    document: null,
    mixed: true,
    nonFinite: Number.NaN,
    __proto__: 7,
    toString: false,
  },
  {
    number: 0,
    text: '',
    flag: true,
    sometimes: 'again',
    document: { nested: { deeper: ['x', 2, false, null] } },
    mixed: { k: 'v' },
    nonFinite: Number.NEGATIVE_INFINITY,
    __proto__: null,
    constructor: 'c3',
    'café ☕': '☕',
  },
];
// JSON.parse makes `__proto__` an own property where an object literal would set the prototype.
for (const [index, value] of [
  [0, { polluted: true }],
  [2, 7],
  [3, null],
] as const) {
  Object.defineProperty(MIXED_ROWS[index], '__proto__', {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
Object.setPrototypeOf(MIXED_ROWS[0], Object.prototype);
const MIXED_ROW_IDS = [7, 2, 1_000_000, 2 ** 31 - 1];

describe('Arrow IPC encoding of data-plane answers', () => {
  test('the media type is the registered Arrow stream type', () => {
    assert.equal(ARROW_STREAM_MEDIA_TYPE, 'application/vnd.apache.arrow.stream');
  });

  test('a mixed table round-trips to exactly what the JSON data plane would deliver', async () => {
    const decoded = await decode(encodeRows(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS));
    assert.deepEqual(decoded.columns, MIXED_COLUMNS);
    assert.deepEqual(decoded.rows, viaJson(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS));
  });

  test('absent cells stay absent and nulls stay null', async () => {
    const { rows } = await decode(encodeRows(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS));
    assert.ok(!('sometimes' in rows[1]));
    assert.equal(rows[2]['sometimes'], null);
    assert.ok(!('nullable' in rows[2]) && !('nullable' in rows[3]));
    assert.equal(rows[0]['nullable'], null);
    assert.ok(!('never' in rows[0]), 'a column with no cell at all is absent everywhere');
    assert.deepEqual(Object.keys(rows[2]), [
      '_row_id',
      'number',
      'text',
      'flag',
      'sometimes',
      'document',
      'mixed',
      'nonFinite',
      '__proto__',
      'toString',
    ]);
  });

  test('`__proto__`, `constructor` and `toString` columns are own properties and leave the prototype alone', async () => {
    const { rows } = await decode(encodeRows(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS));
    const [first, , third, fourth] = rows;
    assert.equal(Object.getPrototypeOf(first), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(first, '__proto__')?.value, { polluted: true });
    assert.equal(Object.getOwnPropertyDescriptor(third, '__proto__')?.value, 7);
    assert.equal(Object.getOwnPropertyDescriptor(fourth, '__proto__')?.value, null);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(first['constructor'], 'c0');
    assert.equal(third['toString'], false);
    assert.ok(!Object.prototype.hasOwnProperty.call(third, 'constructor'));
  });

  test('rows without absent cells (built from a generated literal) keep `__proto__` and `constructor` as own data', async () => {
    const columns = ['__proto__', 'constructor', 'hasOwnProperty', 'x'];
    const rows = [0, 1, 2].map(
      (index) =>
        JSON.parse(
          `{"__proto__":{"p":${index}},"constructor":${index},"hasOwnProperty":"h${index}","x":null}`,
        ) as Cells,
    );
    const decoded = await decode(encodeRows(columns, rows, [10, 11, 12]));
    assert.deepEqual(decoded.rows, viaJson(columns, rows, [10, 11, 12]));
    for (const [index, row] of decoded.rows.entries()) {
      assert.equal(Object.getPrototypeOf(row), Object.prototype);
      assert.deepEqual(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, { p: index });
      assert.deepEqual(Object.keys(row), ['_row_id', '__proto__', 'constructor', 'hasOwnProperty', 'x']);
    }
  });

  test('column names are data in the generated literal: quotes, backslashes, line separators and code stay names', async () => {
    const columns = [
      'a"b',
      'back\\slash',
      'line\u2028sep',
      '"]: globalThis.injected = 1, x: ["',
      '${globalThis.injected = 2}',
      '__proto__',
    ];
    const rows = [0, 1].map(
      (index) => Object.fromEntries(columns.map((column) => [column, `${column} ${index}`])) as Cells,
    );
    const decoded = await decode(encodeRows(columns, rows, [0, 1]));
    assert.deepEqual(decoded.rows, viaJson(columns, rows, [0, 1]));
    assert.deepEqual(Object.keys(decoded.rows[0]), ['_row_id', ...columns]);
    assert.equal((globalThis as Record<string, unknown>).injected, undefined);
  });

  test('decoding works where code generation from strings is disabled', () => {
    const decoder = require.resolve('../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream');
    const encoder = require.resolve('../../libs/s2sp/src/data-plane/arrow/encode-arrow-stream');
    const script = `
      const { encodeArrowStream } = require(${JSON.stringify(encoder)});
      const { decodeArrowStream } = require(${JSON.stringify(decoder)});
      const rows = JSON.parse('[{"a":1,"__proto__":"p"},{"a":2,"__proto__":"q"}]');
      const chunks = [...encodeArrowStream(['a', '__proto__'], 2, (r, c) => rows[r][['a', '__proto__'][c]], (r) => r)];
      let generated = true;
      try { new Function('return 1'); } catch { generated = false; }
      decodeArrowStream((async function* () { yield* chunks; })(), { maxBytes: 1e6 })
        .then((table) => process.stdout.write(JSON.stringify({ generated, rows: table.rows, own: Object.getOwnPropertyDescriptor(table.rows[1], '__proto__').value })));
    `;
    const output = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', script], {
      encoding: 'utf8',
    });
    const expectedRows: unknown = JSON.parse(
      '[{"_row_id":0,"a":1,"__proto__":"p"},{"_row_id":1,"a":2,"__proto__":"q"}]',
    );
    assert.deepEqual(JSON.parse(output), { generated: false, rows: expectedRows, own: 'q' });
  });

  test('types are inferred per column, and JSON-text and presence fields are marked in metadata', () => {
    const reader = RecordBatchReader.from(concat(encodeRows(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS)));
    reader.open();
    const fields = reader.schema.fields;
    assert.equal(reader.schema.metadata.get('s2sp:format'), 's2sp-arrow/1');
    assert.equal(reader.schema.metadata.get('s2sp:total_rows'), '4');
    assert.equal(fields[0].name, '_row_id');
    assert.equal(String(fields[0].type), 'Int32');
    assert.equal(fields[0].nullable, false);
    const typeOf = (name: string): string => {
      // apache-arrow's reader gives the empty name back as null (see columnNameOf in wire-schema.ts).
      const field = fields.find(
        (candidate) => (candidate.name ?? '') === name && candidate.metadata.get('s2sp:role') === 'value',
      )!;
      return `${String(field.type)}${field.metadata.get('s2sp:encoding') === 'json' ? ' json' : ''}`;
    };
    assert.deepEqual(MIXED_COLUMNS.map(typeOf), [
      'Float64',
      'Utf8',
      'Bool',
      'Null',
      'Utf8',
      'Utf8 json',
      'Utf8 json',
      'Utf8 json',
      'Utf8 json',
      'Utf8',
      'Utf8 json',
      'Utf8',
      'Utf8',
      'Null',
    ]);
    const presence = fields.filter((field) => field.metadata.get('s2sp:role') === 'presence');
    assert.ok(presence.every((field) => DataType.isBool(field.type) && !field.nullable));
    const presenceOf = presence.map((field) => MIXED_COLUMNS[Number(field.metadata.get('s2sp:presence_of')) - 1]);
    assert.deepEqual(presenceOf, [
      'nullable',
      'sometimes',
      '__proto__',
      'constructor',
      'toString',
      'café ☕',
      '',
      'never',
    ]);
    assert.equal(fields.length, 1 + MIXED_COLUMNS.length + presence.length);
  });

  test('strings with lone surrogates, which UTF-8 cannot carry, survive as JSON text', async () => {
    const rows = [{ s: '\ud800 lone high' }, { s: 'lone low \udc00' }, { s: 'pair 😀' }];
    const decoded = await decode(encodeRows(['s'], rows, [0, 1, 2]));
    assert.deepEqual(
      decoded.rows.map((row) => row['s']),
      ['\ud800 lone high', 'lone low \udc00', 'pair 😀'],
    );
  });

  test('values JSON would convert are converted the same way (Date to text, toJSON)', async () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    const rows = [{ when, custom: { toJSON: () => ({ converted: true }) } }];
    const decoded = await decode(encodeRows(['when', 'custom'], rows, [0]));
    assert.deepEqual(decoded.rows, [{ _row_id: 0, when: '2026-01-02T03:04:05.000Z', custom: { converted: true } }]);
  });

  test('functions and symbols are absent cells, as JSON leaves them out, in text and dictionary columns alike', async () => {
    const columns = ['unique', 'repeated'];
    const rows = Array.from({ length: 8 }, (_, index) => ({
      unique: index === 3 ? () => 'code' : index === 5 ? Symbol('s') : `u${index}`,
      repeated: index === 2 ? () => 'code' : index === 6 ? Symbol('s') : 'same',
    }));
    const rowIds = rows.map((_, index) => index);
    const decoded = await decode(encodeRows(columns, rows, rowIds));
    assert.deepEqual(decoded.rows, viaJson(columns, rows, rowIds));
    assert.deepEqual(decoded.rows[3], { _row_id: 3, repeated: 'same' });
    assert.deepEqual(decoded.rows[6], { _row_id: 6, unique: 'u6' });
  });

  test('-0 keeps its sign in a Float64 column', async () => {
    const decoded = await decode(encodeRows(['n'], [{ n: -0 }, { n: 0 }], [0, 1]));
    assert.ok(Object.is(decoded.rows[0]['n'], -0));
    assert.ok(Object.is(decoded.rows[1]['n'], 0));
  });

  test('zero rows: the schema and the end of stream, the columns kept', async () => {
    const chunks = encodeRows(['a', '__proto__'], [], []);
    assert.equal(chunks.length, 2);
    const decoded = await decode(chunks);
    assert.deepEqual(decoded, { columns: ['a', '__proto__'], rows: [] });
  });

  test('zero columns besides _row_id', async () => {
    const decoded = await decode(encodeRows([], [{}, {}, {}], [4, 0, 9]));
    assert.deepEqual(decoded, { columns: [], rows: [{ _row_id: 4 }, { _row_id: 0 }, { _row_id: 9 }] });
  });

  test('a selection of non-contiguous row ids keeps its order', async () => {
    const rowIds = [99, 3, 57, 4, 1000, 0];
    const rows = rowIds.map((id) => ({ label: `row ${id}`, square: id * id }));
    const decoded = await decode(encodeRows(['label', 'square'], rows, rowIds));
    assert.deepEqual(
      decoded.rows.map((row) => row['_row_id']),
      rowIds,
    );
    assert.deepEqual(decoded.rows, viaJson(['label', 'square'], rows, rowIds));
  });

  test('many batches: one chunk per batch of batchRows rows, rows and order intact', async () => {
    const rowCount = 10_000;
    const rows = Array.from({ length: rowCount }, (_, index) => ({
      index,
      text: index % 7 === 0 ? null : `t${index}`,
      even: index % 2 === 0,
      sparse: index % 1000 === 0 ? { at: index } : undefined,
    }));
    const rowIds = rows.map((_, index) => rowCount * 2 - index);
    const chunks = encodeRows(['index', 'text', 'even', 'sparse'], rows, rowIds, { batchRows: 333 });
    assert.equal(chunks.length, 1 + Math.ceil(rowCount / 333) + 1);
    const decoded = await decode(chunks);
    assert.deepEqual(decoded.rows, viaJson(['index', 'text', 'even', 'sparse'], rows, rowIds));
  });

  test('chunk boundaries of the source do not matter (a byte at a time, a Node stream)', async () => {
    const chunks = encodeRows(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS, { batchRows: 3 });
    const bytes = concat(chunks);
    const oneByteChunks = Array.from({ length: bytes.byteLength }, (_, index) => bytes.subarray(index, index + 1));
    const expected = viaJson(MIXED_COLUMNS, MIXED_ROWS, MIXED_ROW_IDS);
    assert.deepEqual((await decode(oneByteChunks)).rows, expected);
    const fromNodeStream = await decodeArrowStream(Readable.from([Buffer.from(bytes)]), { maxBytes: bytes.byteLength });
    assert.deepEqual(fromNodeStream.rows, expected);
  });

  test('the encoder is incremental: a batch is built only when it is pulled', () => {
    const rowCount = 1_000;
    const valuePassRows: number[] = [];
    let pass = 1;
    const generator = encodeArrowStream(
      ['v'],
      rowCount,
      (row) => {
        if (pass === 2) valuePassRows.push(row);
        return row;
      },
      (row) => row,
      { batchRows: 100 },
    );
    generator.next(); // the schema, after the pass that infers the types
    pass = 2;
    generator.next();
    assert.equal(Math.max(...valuePassRows), 99);
    generator.next();
    assert.equal(Math.max(...valuePassRows), 199);
  });

  test('maxBytes is enforced while the bytes arrive, the rest of the source is not read', async () => {
    const rows = Array.from({ length: 5_000 }, (_, index) => ({
      text: `a fairly long string for row ${index}`.repeat(4),
    }));
    const chunks = encodeRows(
      ['text'],
      rows,
      rows.map((_, index) => index),
      { batchRows: 100 },
    );
    const total = concat(chunks).byteLength;
    let pulled = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (const chunk of chunks) {
        pulled += 1;
        yield chunk;
      }
    }
    await rejectsWith(decodeArrowStream(counted(), { maxBytes: 50_000 }), ArrowResponseTooLargeError, /50000 bytes/);
    assert.ok(pulled < chunks.length / 2, `read ${pulled} of ${chunks.length} chunks`);
    await rejectsWith(decode(chunks, total - 1), ArrowResponseTooLargeError, /larger than the limit/);
    assert.equal((await decode(chunks, total)).rows.length, rows.length);
  });

  test('an error of the source itself is passed on unchanged', async () => {
    const chunks = encodeRows(['a'], [{ a: 1 }, { a: 2 }], [0, 1], { batchRows: 1 });
    const failure = new Error('socket hang up');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield chunks[0];
      yield chunks[1];
      throw failure;
    }
    await assert.rejects(decodeArrowStream(failing(), { maxBytes: 1_000_000 }), (error: unknown) => error === failure);
  });

  describe('malformed input is rejected with ArrowDecodeError', () => {
    const chunks = encodeRows(
      ['a', 'b'],
      Array.from({ length: 10 }, (_, index) => ({ a: index, b: `b${index}` })),
      Array.from({ length: 10 }, (_, index) => index),
      { batchRows: 4 },
    );
    const bytes = concat(chunks);

    test('garbage bytes', async () => {
      const garbage = Uint8Array.from({ length: 4096 }, (_, index) => (index * 7919 + 13) % 251);
      await rejectsWith(decode([garbage]), ArrowDecodeError, /not a readable Arrow IPC stream/);
      await rejectsWith(
        decode([new TextEncoder().encode('{"body":[],"total_rows":0,"columns_returned":["_row_id"]}')]),
        ArrowDecodeError,
        /Arrow/,
      );
    });

    test('an empty body', async () => {
      await rejectsWith(decode([]), ArrowDecodeError, /ended before its schema/);
    });

    test('a stream cut between batches', async () => {
      await rejectsWith(decode(chunks.slice(0, 2)), ArrowDecodeError, /ended after 4 of the 10 rows/);
    });

    test('a stream cut inside a message', async () => {
      await rejectsWith(decode([bytes.subarray(0, bytes.byteLength - 40)]), ArrowDecodeError, /Arrow/);
      await rejectsWith(decode([bytes.subarray(0, 100)]), ArrowDecodeError, /Arrow/);
    });

    test('an Arrow stream that is not an S2SP answer', async () => {
      const foreign = tableToIPC(tableFromArrays({ _row_id: Int32Array.of(0, 1), a: Float64Array.of(1, 2) }), 'stream');
      await rejectsWith(decode([foreign]), ArrowDecodeError, /not an S2SP answer/);
    });

    test('an Arrow file instead of a stream', async () => {
      const file = RecordBatchFileWriter.writeAll(tableFromIPC(bytes)).toUint8Array(true);
      await rejectsWith(decode([file]), ArrowDecodeError, /an Arrow file, not an Arrow IPC stream/);
    });

    test('streams that break the layout: more rows than announced, a foreign type, bad JSON text, a stray presence field', async () => {
      const rowId = new Field('_row_id', new Int32(), false, new Map([['s2sp:role', 'row_id']]));
      const streamOf = (totalRows: number, fields: Field[], columns: Data[]): Uint8Array => {
        const schema = new Schema(
          [rowId, ...fields],
          new Map([
            ['s2sp:format', 's2sp-arrow/1'],
            ['s2sp:total_rows', String(totalRows)],
          ]),
        );
        const children = [makeData({ type: new Int32(), data: Int32Array.of(0, 1) }), ...columns];
        const batch = new RecordBatch(
          schema,
          makeData({ type: new Struct(schema.fields), length: 2, nullCount: 0, children }),
        );
        return RecordBatchStreamWriter.writeAll([batch]).toUint8Array(true);
      };
      const value = (extra: Array<[string, string]> = []): Map<string, string> =>
        new Map([['s2sp:role', 'value'], ...extra]);
      const texts = (...items: string[]): Data => vectorFromArray(items, new Utf8()).data[0];
      const numbers = makeData({ type: new Float64(), data: Float64Array.of(1, 2) });

      await rejectsWith(
        decode([streamOf(1, [new Field('a', new Float64(), true, value())], [numbers])]),
        ArrowDecodeError,
        /more rows than the 1 it announced/,
      );
      const int64 = makeData({ type: new Int64(), data: BigInt64Array.of(1n, 2n) });
      await rejectsWith(
        decode([streamOf(2, [new Field('a', new Int64(), true, value())], [int64])]),
        ArrowDecodeError,
        /type the S2SP layout does not use/,
      );
      const json = new Field('a', new Utf8(), true, value([['s2sp:encoding', 'json']]));
      await rejectsWith(
        decode([streamOf(2, [json], [texts('{"ok":1}', '{not json')])]),
        ArrowDecodeError,
        /Column "a": a JSON-encoded cell is not JSON/,
      );
      const stray = new Field(
        'p',
        new Bool(),
        false,
        new Map([
          ['s2sp:role', 'presence'],
          ['s2sp:presence_of', '0'],
        ]),
      );
      const bools = makeData({ type: new Bool(), data: Uint8Array.of(3), length: 2 });
      await rejectsWith(
        decode([streamOf(2, [stray], [bools])]),
        ArrowDecodeError,
        /points at field 0, which is not a value field/,
      );
      const twice = [new Field('a', new Float64(), true, value()), new Field('a', new Float64(), true, value())];
      await rejectsWith(decode([streamOf(2, twice, [numbers, numbers])]), ArrowDecodeError, /"a" appears twice/);
    });

    test('a source that yields something other than bytes', async () => {
      async function* text(): AsyncGenerator<Uint8Array> {
        yield 'not bytes' as unknown as Uint8Array;
      }
      await rejectsWith(decodeArrowStream(text(), { maxBytes: 100 }), ArrowDecodeError, /Uint8Array/);
    });
  });

  describe('the encoder refuses what it cannot represent', () => {
    const encodeAll = (columns: string[], rowIds: number[]): Uint8Array[] => [
      ...encodeArrowStream(
        columns,
        rowIds.length,
        () => 1,
        (row) => rowIds[row],
      ),
    ];

    test('a data column named _row_id or a column named twice', () => {
      assert.throws(() => encodeAll(['_row_id'], [0]), TypeError);
      assert.throws(() => encodeAll(['a', 'a'], [0]), TypeError);
    });

    test('row ids outside [0, 2^31 - 1] or not integers', () => {
      for (const rowId of [-1, 2 ** 31, 1.5, Number.NaN]) assert.throws(() => encodeAll(['a'], [rowId]), RangeError);
    });

    test('a row count or batch size that is not a proper integer', () => {
      assert.throws(
        () => [
          ...encodeArrowStream(
            [],
            -1,
            () => null,
            () => 0,
          ),
        ],
        RangeError,
      );
      assert.throws(
        () => [
          ...encodeArrowStream(
            [],
            1,
            () => null,
            () => 0,
            { batchRows: 0 },
          ),
        ],
        RangeError,
      );
    });
  });
});
