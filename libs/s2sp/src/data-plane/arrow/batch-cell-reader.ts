import { Buffer, isAscii } from 'node:buffer';
import type { Data } from 'apache-arrow';
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
  if (bitmap === undefined || bitmap.byteLength * 8 < data.offset + data.length) fail(columnName, 'its validity bitmap is shorter than the batch.');
  return (index) => bitAt(bitmap, data.offset, index);
}

function utf8TextReader(data: Data, columnName: string): (index: number) => string {
  const offsets = data.valueOffsets as Int32Array | undefined;
  const values = data.values as Uint8Array | undefined;
  if (offsets === undefined || values === undefined || offsets.length < data.length + 1) fail(columnName, 'its Utf8 offsets are shorter than the batch.');
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  const checkRange = (index: number, start: number, end: number): void => {
    if (start < 0 || end < start || end > bytes.byteLength) fail(columnName, `the Utf8 offsets of row ${index} of a batch are out of range.`);
  };
  if (isAscii(bytes)) {
    // Byte offsets are string offsets: one decode for the whole column, then cheap slices.
    const whole = bytes.toString('latin1');
    return (index) => {
      const start = offsets[index]!;
      const end = offsets[index + 1]!;
      checkRange(index, start, end);
      return whole.slice(start, end);
    };
  }
  return (index) => {
    const start = offsets[index]!;
    const end = offsets[index + 1]!;
    checkRange(index, start, end);
    return bytes.toString('utf8', start, end);
  };
}

function valueReader(data: Data, kind: ColumnKind, columnName: string): CellReader {
  switch (kind) {
    case 'null':
      return () => null;
    case 'float64': {
      const values = data.values as Float64Array;
      if (values.length < data.length) fail(columnName, 'its Float64 values are shorter than the batch.');
      return (index) => values[index];
    }
    case 'bool': {
      const values = data.values as Uint8Array;
      if (values.byteLength * 8 < data.offset + data.length) fail(columnName, 'its Bool values are shorter than the batch.');
      return (index) => bitAt(values, data.offset, index);
    }
    case 'utf8':
      return utf8TextReader(data, columnName);
    case 'json': {
      const textAt = utf8TextReader(data, columnName);
      return (index) => {
        try {
          return JSON.parse(textAt(index)) as unknown;
        } catch (error) {
          if (error instanceof ArrowDecodeError) throw error;
          return fail(columnName, `a JSON-encoded cell is not JSON (${(error as Error).message}).`);
        }
      };
    }
  }
}

/** Reads the cells of one column of one record batch, nulls included. */
export function batchCellReader(data: Data, kind: ColumnKind, columnName: string): CellReader {
  const readValue = valueReader(data, kind, columnName);
  const isValid = kind === 'null' ? null : validityOf(data, columnName);
  return isValid === null ? readValue : (index) => (isValid(index) ? readValue(index) : null);
}

/** Reads a presence column: true where the cell is present. */
export function presenceReader(data: Data, columnName: string): (index: number) => boolean {
  if (data.nullCount !== 0) fail(columnName, 'its presence field has null slots.');
  const values = data.values as Uint8Array;
  if (values.byteLength * 8 < data.offset + data.length) fail(columnName, 'its presence field is shorter than the batch.');
  return (index) => bitAt(values, data.offset, index);
}
