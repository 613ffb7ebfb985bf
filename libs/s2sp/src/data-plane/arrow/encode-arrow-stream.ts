import { Data, Int32, makeData, RecordBatch, RecordBatchStreamWriter, Struct, type Schema } from 'apache-arrow';
import { ROW_ID_FIELD_NAME } from './arrow-wire-format';
import { createBatchColumnBuilder, PresenceColumnBuilder } from './batch-column-builder';
import { CollectingByteSink } from './collecting-byte-sink';
import { ColumnKindTally } from './column-kind';
import { buildWireSchema, type WireLayout } from './wire-schema';

export const DEFAULT_ARROW_BATCH_ROWS = 16_384;

export interface ArrowStreamEncodeOptions {
  /** Rows per record batch (the last one may have fewer). */
  batchRows?: number;
}

const MAX_ROW_ID = 2 ** 31 - 1;

function checkArguments(columns: readonly string[], rowCount: number, batchRows: number): void {
  if (!Number.isSafeInteger(rowCount) || rowCount < 0) throw new RangeError(`rowCount must be a non-negative integer, got ${rowCount}.`);
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError(`batchRows must be a positive integer, got ${batchRows}.`);
  const seen = new Set<string>();
  for (const column of columns) {
    if (typeof column !== 'string') throw new TypeError('Column names must be strings.');
    if (column === ROW_ID_FIELD_NAME) throw new TypeError(`${ROW_ID_FIELD_NAME} is always the first column; it cannot be a data column.`);
    if (seen.has(column)) throw new TypeError(`The column ${JSON.stringify(column)} is named twice.`);
    seen.add(column);
  }
}

function checkedRowId(rowId: number, rowIndex: number): number {
  if (!Number.isInteger(rowId) || rowId < 0 || rowId > MAX_ROW_ID) {
    throw new RangeError(`The row id of row ${rowIndex} must be an integer in [0, ${MAX_ROW_ID}], got ${rowId}.`);
  }
  return rowId;
}

function encodeBatch(
  schema: Schema,
  layout: WireLayout,
  start: number,
  end: number,
  valueAt: (rowIndex: number, columnIndex: number) => unknown,
  rowIdAt: (rowIndex: number) => number,
): RecordBatch {
  const length = end - start;
  const rowIds = new Int32Array(length);
  const valueBuilders = layout.columns.map((column) => createBatchColumnBuilder(column.kind, length));
  const presenceBuilders = layout.columns.map((column) => (column.presenceFieldIndex === null ? null : new PresenceColumnBuilder(length)));
  for (let rowIndex = start; rowIndex < end; rowIndex += 1) {
    rowIds[rowIndex - start] = checkedRowId(rowIdAt(rowIndex), rowIndex);
    for (let columnIndex = 0; columnIndex < valueBuilders.length; columnIndex += 1) {
      const value = valueAt(rowIndex, columnIndex);
      valueBuilders[columnIndex]!.append(value);
      presenceBuilders[columnIndex]?.append(value);
    }
  }
  const children: Data[] = new Array<Data>(schema.fields.length);
  children[0] = makeData({ type: new Int32(), length, nullCount: 0, data: rowIds });
  layout.columns.forEach((column, columnIndex) => {
    children[column.valueFieldIndex] = valueBuilders[columnIndex]!.finish();
    const presence = presenceBuilders[columnIndex];
    if (column.presenceFieldIndex !== null && presence) children[column.presenceFieldIndex] = presence.finish();
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

/**
 * Encodes selected rows as an Arrow IPC stream in the S2SP layout (README.md in this
 * folder). Yields the schema message, then one chunk per record batch of `batchRows`
 * rows, then the end-of-stream marker. Column types are inferred in a first pass over
 * the cells (which keeps nothing), so `valueAt` is called twice per cell; the rows of
 * only one batch are held at a time.
 */
export function* encodeArrowStream(
  columns: readonly string[],
  rowCount: number,
  valueAt: (rowIndex: number, columnIndex: number) => unknown,
  rowIdAt: (rowIndex: number) => number,
  options: ArrowStreamEncodeOptions = {},
): Generator<Uint8Array, void, undefined> {
  const batchRows = options.batchRows ?? DEFAULT_ARROW_BATCH_ROWS;
  checkArguments(columns, rowCount, batchRows);

  const tallies = columns.map(() => new ColumnKindTally());
  for (let rowIndex = 0; rowIndex < rowCount; rowIndex += 1) {
    for (let columnIndex = 0; columnIndex < tallies.length; columnIndex += 1) tallies[columnIndex]!.add(valueAt(rowIndex, columnIndex));
  }
  const plans = columns.map((name, columnIndex) => ({ name, kind: tallies[columnIndex]!.kind, hasAbsentCells: tallies[columnIndex]!.hasAbsentCells }));
  const { schema, layout } = buildWireSchema(plans, rowCount);

  const sink = new CollectingByteSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  yield sink.take();
  for (let start = 0; start < rowCount; start += batchRows) {
    writer.write(encodeBatch(schema, layout, start, Math.min(rowCount, start + batchRows), valueAt, rowIdAt));
    yield sink.take();
  }
  writer.close();
  yield sink.take();
}
