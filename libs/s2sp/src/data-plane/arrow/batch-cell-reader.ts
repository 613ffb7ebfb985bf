import { Buffer, isAscii } from 'node:buffer';
import { DataType, type Data } from 'apache-arrow';
import { ArrowDecodeError } from './arrow-errors';
import { bitAt } from './bitmap';
import type { ColumnKind } from './column-kind';

/** The value of one cell of a received column: null for a null slot. */
export type CellReader = (index: number) => unknown;

function fail(columnName: string, problem: string): never {
  throw new ArrowDecodeError(`Column ${JSON.stringify(columnName)}: ${problem}`);
}

/**
 * Bitmaps and Bool values are addressed from `data.offset`; fixed-width values and
 * Utf8 offsets are already sliced to the column by apache-arrow (its `Data` slicing).
 */
function validityOf(data: Data, columnName: string): ((index: number) => boolean) | null {
  if (data.nullCount === 0) return null;
  const bitmap = data.nullBitmap;
  if (bitmap === undefined || bitmap.byteLength * 8 < data.offset + data.length)
    fail(columnName, 'its validity bitmap is shorter than the batch.');
  return (index) => bitAt(bitmap, data.offset, index);
}

function utf8TextReader(data: Data, columnName: string): (index: number) => string {
  const offsets = data.valueOffsets as Int32Array | undefined;
  const values = data.values as Uint8Array | undefined;
  if (offsets === undefined || values === undefined || offsets.length < data.length + 1)
    fail(columnName, 'its Utf8 offsets are shorter than the batch.');
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const checkRange = (index: number, start: number, end: number): void => {
    if (start < 0 || end < start || end > bytes.byteLength)
      fail(columnName, `the Utf8 offsets of row ${index} of a batch are out of range.`);
  };
  if (isAscii(bytes)) {
    // Byte offsets are string offsets: one decode for the whole column, then cheap slices.
    const whole = bytes.toString('latin1');
    return (index) => {
      const start = offsets[index];
      const end = offsets[index + 1];
      checkRange(index, start, end);
      return whole.slice(start, end);
    };
  }
  return (index) => {
    const start = offsets[index];
    const end = offsets[index + 1];
    checkRange(index, start, end);
    return bytes.toString('utf8', start, end);
  };
}

/**
 * The decoded entries of dictionary chunks, kept for one answer: a producer sending
 * delta dictionaries makes each batch's dictionary the earlier chunks plus new ones.
 */
export type DictionaryEntries = WeakMap<Data, ReadonlyArray<string | null>>;

/** The text of each cell of a Utf8 column, or of a dictionary-encoded one; null for a null slot. */
function textReader(data: Data, columnName: string, dictionaries: DictionaryEntries): (index: number) => string | null {
  if (!DataType.isDictionary(data.type)) return nullable(data, columnName, utf8TextReader(data, columnName));
  const keys = data.values as ArrayLike<number>;
  if (keys.length < data.length) fail(columnName, 'its dictionary keys are shorter than the batch.');
  const chunks = data.dictionary?.data ?? [];
  const decodedChunk = (chunk: Data): ReadonlyArray<string | null> => {
    let decoded = dictionaries.get(chunk);
    if (decoded === undefined) {
      if (!DataType.isUtf8(chunk.type)) fail(columnName, 'its dictionary is not Utf8.');
      const entryAt = nullable(chunk, columnName, utf8TextReader(chunk, columnName));
      decoded = Array.from({ length: chunk.length }, (_, index) => entryAt(index));
      dictionaries.set(chunk, decoded);
    }
    return decoded;
  };
  // Our encoder sends one chunk per batch; only delta dictionaries make several.
  const entries = chunks.length === 1 ? decodedChunk(chunks[0]) : chunks.flatMap(decodedChunk);
  return nullable(data, columnName, (index) => {
    const entry = entries[keys[index]];
    if (entry === undefined) fail(columnName, `the dictionary key of row ${index} of a batch is out of range.`);
    return entry;
  });
}

/** Reads the cells of one column of one record batch, nulls included. */
export function batchCellReader(
  data: Data,
  kind: ColumnKind,
  columnName: string,
  dictionaries: DictionaryEntries,
): CellReader {
  switch (kind) {
    case 'null':
      return () => null;
    case 'float64': {
      const values = data.values as Float64Array;
      if (values.length < data.length) fail(columnName, 'its Float64 values are shorter than the batch.');
      return nullable(data, columnName, (index) => values[index]);
    }
    case 'bool': {
      const values = data.values as Uint8Array;
      if (values.byteLength * 8 < data.offset + data.length)
        fail(columnName, 'its Bool values are shorter than the batch.');
      return nullable(data, columnName, (index) => bitAt(values, data.offset, index));
    }
    case 'utf8':
      return textReader(data, columnName, dictionaries);
    case 'json': {
      const textAt = textReader(data, columnName, dictionaries);
      return (index) => {
        const text = textAt(index);
        if (text === null) return null;
        try {
          return JSON.parse(text) as unknown;
        } catch (error) {
          return fail(columnName, `a JSON-encoded cell is not JSON (${(error as Error).message}).`);
        }
      };
    }
  }
}

/** A reader that gives null for the null slots of `data` and asks `readValue` for the others. */
function nullable<T>(data: Data, columnName: string, readValue: (index: number) => T): (index: number) => T | null {
  const isValid = validityOf(data, columnName);
  return isValid === null ? readValue : (index) => (isValid(index) ? readValue(index) : null);
}

/** Reads a presence column: true where the cell is present. */
export function presenceReader(data: Data, columnName: string): (index: number) => boolean {
  if (data.nullCount !== 0) fail(columnName, 'its presence field has null slots.');
  const values = data.values as Uint8Array;
  if (values.byteLength * 8 < data.offset + data.length)
    fail(columnName, 'its presence field is shorter than the batch.');
  return (index) => bitAt(values, data.offset, index);
}
