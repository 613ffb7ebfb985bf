import assert from 'node:assert/strict';
import {
  encodeArrowStream,
  type ArrowStreamEncodeOptions,
} from '../../libs/s2sp/src/data-plane/arrow/encode-arrow-stream';
import { decodeArrowStream, type DecodedArrowTable } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';

/** Helpers for tests of the data plane's Arrow answers (`libs/s2sp/src/data-plane/arrow/`). */
export type Cells = Record<string, unknown>;

/** Cells are looked up with hasOwnProperty so that a `__proto__` cell is an ordinary key. */
export function cellOf(cells: Cells, column: string): unknown {
  return Object.prototype.hasOwnProperty.call(cells, column) ? cells[column] : undefined;
}

export function encodeRows(
  columns: readonly string[],
  rows: readonly Cells[],
  rowIds: readonly number[],
  options?: ArrowStreamEncodeOptions,
): Uint8Array[] {
  return [
    ...encodeArrowStream(
      columns,
      rows.length,
      (row, column) => cellOf(rows[row], columns[column]),
      (row) => rowIds[row],
      options,
    ),
  ];
}

async function* chunksOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks));
}

export function decode(chunks: readonly Uint8Array[], maxBytes = 64 * 1024 * 1024): Promise<DecodedArrowTable> {
  return decodeArrowStream(chunksOf(chunks), { maxBytes });
}

/** What the JSON data plane would deliver for the same rows: `{ _row_id, ...cells }` through JSON text. */
export function viaJson(
  columns: readonly string[],
  rows: readonly Cells[],
  rowIds: readonly number[],
): Array<Record<string, unknown>> {
  return rows.map((cells, index) => {
    const row: Record<string, unknown> = { _row_id: rowIds[index] };
    for (const column of columns) {
      const value = cellOf(cells, column);
      if (value !== undefined)
        Object.defineProperty(row, column, { value, enumerable: true, writable: true, configurable: true });
    }
    return JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
  });
}

export async function rejectsWith(
  promise: Promise<unknown>,
  errorClass: new (...args: never[]) => Error,
  pattern: RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof errorClass, `expected ${errorClass.name}, got ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}
