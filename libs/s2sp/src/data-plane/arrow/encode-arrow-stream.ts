import { Data, Int32, makeData, RecordBatch, RecordBatchStreamWriter, Struct, type Schema } from 'apache-arrow';
import { ROW_ID_FIELD_NAME } from './arrow-wire-format';
import { buildPresenceColumn, buildValueColumn } from './batch-column-builder';
import { CollectingByteSink } from './collecting-byte-sink';
import { ColumnKindTally } from './column-kind';
import { stringsRepeat } from './dictionary-choice';
import { buildWireSchema, type ColumnPlan, type WireLayout } from './wire-schema';

export const DEFAULT_ARROW_BATCH_ROWS = 16_384;

export interface ArrowStreamEncodeOptions {
  /** Rows per record batch (the last one may have fewer). */
  batchRows?: number;
}

const MAX_ROW_ID = 2 ** 31 - 1;

function checkArguments(columns: readonly string[], rowCount: number, batchRows: number): void {
  if (!Number.isSafeInteger(rowCount) || rowCount < 0)
    throw new RangeError(`rowCount must be a non-negative integer, got ${rowCount}.`);
  if (!Number.isSafeInteger(batchRows) || batchRows < 1)
    throw new RangeError(`batchRows must be a positive integer, got ${batchRows}.`);
  const seen = new Set<string>();
  for (const column of columns) {
    if (typeof column !== 'string') throw new TypeError('Column names must be strings.');
    if (column === ROW_ID_FIELD_NAME)
      throw new TypeError(`${ROW_ID_FIELD_NAME} is always the first column; it cannot be a data column.`);
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

/**
 * Copies the cells of rows [start, end) into `into[column][row - start]`, undefined
 * for a cell the row does not have. Called twice per row, so it must give the same cells twice.
 */
export type CellSliceReader = (start: number, end: number, into: unknown[][]) => void;

function encodeBatch(
  schema: Schema,
  layout: WireLayout,
  start: number,
  end: number,
  cells: unknown[][],
  rowIdAt: (rowIndex: number) => number,
): RecordBatch {
  const length = end - start;
  const rowIds = new Int32Array(length);
  for (let rowIndex = start; rowIndex < end; rowIndex += 1)
    rowIds[rowIndex - start] = checkedRowId(rowIdAt(rowIndex), rowIndex);
  const children: Data[] = new Array<Data>(schema.fields.length);
  children[0] = makeData({ type: new Int32(), length, nullCount: 0, data: rowIds });
  layout.columns.forEach((column, columnIndex) => {
    const columnCells = cells[columnIndex];
    children[column.valueFieldIndex] = buildValueColumn(
      column.kind,
      schema.fields[column.valueFieldIndex].type,
      columnCells,
      length,
    );
    if (column.presenceFieldIndex !== null)
      children[column.presenceFieldIndex] = buildPresenceColumn(columnCells, length);
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

/** The first pass: each column's kind and absent cells over every row, whether its strings repeat in the first batch. */
function planColumns(
  columns: readonly string[],
  rowCount: number,
  batchRows: number,
  readCells: CellSliceReader,
  cells: unknown[][],
): ColumnPlan[] {
  const tallies = columns.map(() => new ColumnKindTally());
  const repeating = columns.map(() => false);
  for (let start = 0; start < rowCount; start += batchRows) {
    const end = Math.min(rowCount, start + batchRows);
    readCells(start, end, cells);
    columns.forEach((_, columnIndex) => {
      const columnCells = cells[columnIndex];
      const tally = tallies[columnIndex];
      for (let index = 0; index < end - start; index += 1) tally.add(columnCells[index]);
      if (start === 0) repeating[columnIndex] = stringsRepeat(columnCells, end - start);
    });
  }
  return columns.map((name, columnIndex) => {
    const tally = tallies[columnIndex];
    return { name, kind: tally.kind, hasAbsentCells: tally.hasAbsentCells, dictionaryEncoded: repeating[columnIndex] };
  });
}

/**
 * Encodes selected rows as an Arrow IPC stream in the S2SP layout (README.md in this
 * folder), reading the cells a batch at a time through `readCells`. Yields the schema
 * message, then one chunk per record batch of `batchRows` rows, then the end-of-stream
 * marker. Column types are inferred in a first pass over the cells (which keeps nothing),
 * so every row is read twice; the cells of only one batch are held at a time.
 */
export function* encodeArrowSlices(
  columns: readonly string[],
  rowCount: number,
  readCells: CellSliceReader,
  rowIdAt: (rowIndex: number) => number,
  options: ArrowStreamEncodeOptions = {},
): Generator<Uint8Array, void, undefined> {
  const batchRows = options.batchRows ?? DEFAULT_ARROW_BATCH_ROWS;
  checkArguments(columns, rowCount, batchRows);
  const cells = columns.map(() => new Array<unknown>(Math.min(batchRows, rowCount)));
  const { schema, layout } = buildWireSchema(planColumns(columns, rowCount, batchRows, readCells, cells), rowCount);

  const sink = new CollectingByteSink();
  const writer = new RecordBatchStreamWriter();
  writer.reset(sink, schema);
  yield sink.take();
  for (let start = 0; start < rowCount; start += batchRows) {
    const end = Math.min(rowCount, start + batchRows);
    readCells(start, end, cells);
    writer.write(encodeBatch(schema, layout, start, end, cells, rowIdAt));
    yield sink.take();
  }
  writer.close();
  yield sink.take();
}

/**
 * {@link encodeArrowSlices} reading cell by cell: `valueAt(row, column)` is the cell,
 * undefined when the row does not have the column; it is called twice per cell.
 */
export function encodeArrowStream(
  columns: readonly string[],
  rowCount: number,
  valueAt: (rowIndex: number, columnIndex: number) => unknown,
  rowIdAt: (rowIndex: number) => number,
  options: ArrowStreamEncodeOptions = {},
): Generator<Uint8Array, void, undefined> {
  const readCells: CellSliceReader = (start, end, into) => {
    into.forEach((columnCells, columnIndex) => {
      for (let rowIndex = start; rowIndex < end; rowIndex += 1)
        columnCells[rowIndex - start] = valueAt(rowIndex, columnIndex);
    });
  };
  return encodeArrowSlices(columns, rowCount, readCells, rowIdAt, options);
}
