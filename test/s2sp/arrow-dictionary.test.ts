import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Data,
  DataType,
  Dictionary,
  Field,
  Float64,
  Int32,
  Int64,
  Int8,
  makeData,
  RecordBatch,
  RecordBatchReader,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Utf8,
  Vector,
  vectorFromArray,
} from 'apache-arrow';
import { ArrowDecodeError } from '../../libs/s2sp/src/data-plane/arrow/arrow-errors';
import { concat, decode, encodeRows, rejectsWith, viaJson, type Cells } from '../support/arrow-answers';

const STATUSES = ['open', 'closed', 'pending'];

/** 1,000 rows: `status` repeats (with nulls and absent cells), `id` is unique, `score` a number. */
function rowsWithRepeats(): Cells[] {
  return Array.from({ length: 1000 }, (_, index) => {
    const row: Cells = { id: `id-${index}`, score: index / 4 };
    if (index % 11 !== 0) row['status'] = index % 7 === 0 ? null : STATUSES[index % STATUSES.length];
    return row;
  });
}

function batchesOf(chunks: readonly Uint8Array[]): RecordBatch[] {
  return [...RecordBatchReader.from(concat(chunks))];
}

function valueField(name: string, type: DataType, extra: Array<[string, string]> = []): Field {
  return new Field(name, type, true, new Map([['s2sp:role', 'value'], ...extra]));
}

/** An S2SP stream of one value field, written by apache-arrow's own writer from these batches' columns. */
function streamOf(field: Field, columns: Data[]): Uint8Array {
  const rowId = new Field('_row_id', new Int32(), false, new Map([['s2sp:role', 'row_id']]));
  const totalRows = columns.reduce((sum, column) => sum + column.length, 0);
  const schema = new Schema(
    [rowId, field],
    new Map([
      ['s2sp:format', 's2sp-arrow/1'],
      ['s2sp:total_rows', String(totalRows)],
    ]),
  );
  let firstRowId = 0;
  const batches = columns.map((column) => {
    const rowIds = makeData({
      type: new Int32(),
      data: Int32Array.from({ length: column.length }, (_, index) => firstRowId + index),
    });
    firstRowId += column.length;
    return new RecordBatch(
      schema,
      makeData({ type: new Struct(schema.fields), length: column.length, nullCount: 0, children: [rowIds, column] }),
    );
  });
  return RecordBatchStreamWriter.writeAll(batches).toUint8Array(true);
}

function texts(...items: Array<string | null>): Data<Utf8> {
  return vectorFromArray(items, new Utf8()).data[0];
}

function keyed(type: Dictionary, keys: Int8Array | Int32Array | BigInt64Array, dictionary: Vector): Data {
  // apache-arrow's types tie the key array to the key type; these tests pair them by hand.
  return makeData({ type, length: keys.length, nullCount: 0, data: keys as Int32Array, dictionary });
}

describe('dictionary-encoded string columns in Arrow answers', () => {
  test('a string column whose values repeat travels as a dictionary per batch; unique strings stay plain; the rows are unchanged', async () => {
    const rows = rowsWithRepeats();
    const rowIds = rows.map((_, index) => index);
    const chunks = encodeRows(['id', 'status', 'score'], rows, rowIds, { batchRows: 300 });
    const batches = batchesOf(chunks);
    const status = batches[0].schema.fields.find((field) => field.name === 'status')!;
    assert.ok(
      DataType.isDictionary(status.type) &&
        DataType.isUtf8(status.type.dictionary) &&
        status.type.indices.bitWidth === 32,
    );
    assert.ok(DataType.isUtf8(batches[0].schema.fields.find((field) => field.name === 'id')!.type));
    assert.equal(batches.length, 4);
    for (const batch of batches) {
      const dictionary = batch.getChild('status')!.data[0].dictionary!;
      assert.deepEqual(
        [...dictionary].sort(),
        [...STATUSES].sort(),
        'each batch carries the distinct values of its own rows',
      );
    }
    assert.deepEqual((await decode(chunks)).rows, viaJson(['id', 'status', 'score'], rows, rowIds));
  });

  test('a dictionary-encoded answer is smaller than the same answer with every string spelled out', () => {
    const repeated = Array.from({ length: 2000 }, (_, index) => ({
      word: `a fairly long repeated value ${index % 5}`,
    }));
    const unique = Array.from({ length: 2000 }, (_, index) => ({ word: `a fairly long repeated value ${index}` }));
    const rowIds = repeated.map((_, index) => index);
    const size = (rows: Cells[]): number => concat(encodeRows(['word'], rows, rowIds)).byteLength;
    assert.ok(
      size(repeated) * 3 < size(unique),
      `${size(repeated)} bytes dictionary-encoded against ${size(unique)} spelled out`,
    );
  });

  test('dictionaries as other Arrow producers write them are read: 8-bit keys, delta dictionaries, null entries', async () => {
    const type = new Dictionary(new Utf8(), new Int8(), 0);
    const first = texts('a', null);
    const delta = texts('c');
    const stream = streamOf(valueField('letter', type), [
      keyed(type, Int8Array.of(0, 1, 0), new Vector([first])),
      keyed(type, Int8Array.of(2, 0), new Vector([first, delta])),
    ]);
    const { rows } = await decode([stream]);
    assert.deepEqual(rows, [
      { _row_id: 0, letter: 'a' },
      { _row_id: 1, letter: null },
      { _row_id: 2, letter: 'a' },
      { _row_id: 3, letter: 'c' },
      { _row_id: 4, letter: 'a' },
    ]);
  });

  test('a dictionary-encoded JSON-text column gives each row its own parsed value', async () => {
    const type = new Dictionary(new Utf8(), new Int32(), 0);
    const stream = streamOf(valueField('doc', type, [['s2sp:encoding', 'json']]), [
      keyed(type, Int32Array.of(0, 0), new Vector([texts('{"k":1}')])),
    ]);
    const { rows } = await decode([stream]);
    assert.deepEqual(
      rows.map((row) => row['doc']),
      [{ k: 1 }, { k: 1 }],
    );
    assert.notEqual(rows[0]['doc'], rows[1]['doc'], 'changing one row must not change the other');
  });

  test('refused: a key past the dictionary, a dictionary of other values, 64-bit keys', async () => {
    const type = new Dictionary(new Utf8(), new Int32(), 0);
    const pastTheEnd = streamOf(valueField('s', type), [
      keyed(type, Int32Array.of(0, 2), new Vector([texts('x', 'y')])),
    ]);
    await rejectsWith(
      decode([pastTheEnd]),
      ArrowDecodeError,
      /Column "s": the dictionary key of row 1 of a batch is out of range/,
    );
    const negative = streamOf(valueField('s', type), [keyed(type, Int32Array.of(-1, 0), new Vector([texts('x')]))]);
    await rejectsWith(decode([negative]), ArrowDecodeError, /dictionary key of row 0 of a batch is out of range/);

    const ofNumbers = new Dictionary(new Float64(), new Int32(), 0);
    const numbers = keyed(ofNumbers, Int32Array.of(0), vectorFromArray([1.5], new Float64()));
    await rejectsWith(
      decode([streamOf(valueField('n', ofNumbers), [numbers])]),
      ArrowDecodeError,
      /dictionary-encoded with keys or values the S2SP layout does not use/,
    );

    const wideKeys = new Dictionary(new Utf8(), new Int64() as unknown as Int32, 0);
    const wide = keyed(wideKeys, BigInt64Array.of(0n), new Vector([texts('x')]));
    await rejectsWith(
      decode([streamOf(valueField('w', wideKeys), [wide])]),
      ArrowDecodeError,
      /dictionary-encoded with keys or values the S2SP layout does not use/,
    );
  });
});
