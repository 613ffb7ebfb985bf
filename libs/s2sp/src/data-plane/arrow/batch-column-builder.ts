import { Bool, Data, DataType, Float64, makeData, Null, Utf8, Vector, type Dictionary } from 'apache-arrow';
import { Bitmap } from './bitmap';
import { isAbsentCell, type ColumnKind } from './column-kind';

/** Offsets of a Utf8 column are Int32. */
const MAX_UTF8_BYTES_PER_BATCH = 2 ** 31 - 1;

function float64Column(cells: readonly unknown[], length: number): Data {
  const values = new Float64Array(length);
  const validity = new Bitmap(length);
  for (let index = 0; index < length; index += 1) {
    const value = cells[index];
    if (typeof value === 'number') {
      values[index] = value;
      validity.set(index);
    }
  }
  const nullCount = validity.unsetCount;
  return makeData({
    type: new Float64(),
    length,
    nullCount,
    nullBitmap: nullCount > 0 ? validity.bytes : null,
    data: values,
  });
}

function boolColumn(cells: readonly unknown[], length: number): Data {
  const values = new Bitmap(length);
  const validity = new Bitmap(length);
  for (let index = 0; index < length; index += 1) {
    const value = cells[index];
    if (typeof value === 'boolean') {
      if (value) values.set(index);
      validity.set(index);
    }
  }
  const nullCount = validity.unsetCount;
  return makeData({
    type: new Bool(),
    length,
    nullCount,
    nullBitmap: nullCount > 0 ? validity.bytes : null,
    data: values.bytes,
  });
}

/** A Utf8 column of these texts; anything but a string is a null slot. */
function utf8Column(texts: readonly unknown[], length: number): Data<Utf8> {
  const valueOffsets = new Int32Array(length + 1);
  const validity = new Bitmap(length);
  // One UTF-8 encoding of the whole column: per-cell encoding calls cost more than the text.
  let joined = '';
  for (let index = 0; index < length; index += 1) {
    const text = texts[index];
    if (typeof text !== 'string') continue;
    joined += text;
    validity.set(index);
  }
  const bytes = Buffer.from(joined, 'utf8');
  if (bytes.byteLength > MAX_UTF8_BYTES_PER_BATCH) {
    throw new RangeError(
      `A batch of column text exceeds ${MAX_UTF8_BYTES_PER_BATCH} bytes of UTF-8; encode with fewer batchRows.`,
    );
  }
  // As many bytes as UTF-16 units only when every character is ASCII: offsets are then string lengths.
  const ascii = bytes.byteLength === joined.length;
  let offset = 0;
  for (let index = 0; index < length; index += 1) {
    const text = texts[index];
    if (typeof text === 'string') offset += ascii ? text.length : Buffer.byteLength(text, 'utf8');
    valueOffsets[index + 1] = offset;
  }
  const nullCount = validity.unsetCount;
  return makeData({
    type: new Utf8(),
    length,
    nullCount,
    nullBitmap: nullCount > 0 ? validity.bytes : null,
    valueOffsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  });
}

/** Every value as its JSON text; one whose JSON text is undefined (a toJSON returning undefined) travels as null. */
function jsonTextColumn(cells: readonly unknown[], length: number): Data {
  const texts = new Array<string | undefined>(length);
  for (let index = 0; index < length; index += 1) {
    const value = cells[index];
    if (value !== null && !isAbsentCell(value)) texts[index] = JSON.stringify(value);
  }
  return utf8Column(texts, length);
}

/**
 * Each distinct string once, in a dictionary of this batch only (the next batch
 * brings its own), and per cell its Int32 key: a reader then makes one string per
 * distinct value instead of one per cell.
 */
function dictionaryStringColumn(cells: readonly unknown[], length: number, type: Dictionary): Data {
  const keys = new Int32Array(length);
  const validity = new Bitmap(length);
  const keyOf = new Map<string, number>();
  const entries: string[] = [];
  for (let index = 0; index < length; index += 1) {
    const value = cells[index];
    if (typeof value !== 'string') continue;
    let key = keyOf.get(value);
    if (key === undefined) {
      key = entries.length;
      keyOf.set(value, key);
      entries.push(value);
    }
    keys[index] = key;
    validity.set(index);
  }
  const nullCount = validity.unsetCount;
  const dictionary = new Vector([utf8Column(entries, entries.length)]);
  return makeData({
    type,
    length,
    nullCount,
    nullBitmap: nullCount > 0 ? validity.bytes : null,
    data: keys,
    dictionary,
  });
}

/**
 * One value field of a record batch from the column's cells `cells[0…length-1]`, as the
 * row cells copier left them: `type` is the field's type in the schema.
 */
export function buildValueColumn(kind: ColumnKind, type: DataType, cells: readonly unknown[], length: number): Data {
  switch (kind) {
    case 'null':
      return makeData({ type: new Null(), length });
    case 'float64':
      return float64Column(cells, length);
    case 'bool':
      return boolColumn(cells, length);
    case 'utf8':
      // A `utf8` column's other cells are nulls and absent cells (undefined, functions, symbols): null slots.
      return DataType.isDictionary(type) ? dictionaryStringColumn(cells, length, type) : utf8Column(cells, length);
    case 'json':
      return jsonTextColumn(cells, length);
  }
}

/** The companion field of a column with absent cells: bit set = the cell is present. */
export function buildPresenceColumn(cells: readonly unknown[], length: number): Data {
  const presence = new Bitmap(length);
  for (let index = 0; index < length; index += 1) if (!isAbsentCell(cells[index])) presence.set(index);
  return makeData({ type: new Bool(), length, nullCount: 0, data: presence.bytes });
}
