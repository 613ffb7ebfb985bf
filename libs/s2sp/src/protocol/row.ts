import { type Row, ROW_ID, setColumn } from '@s2sp/protocol';

export { isRow, type Row, ROW_ID, setColumn } from '@s2sp/protocol';

/** Every column seen across the rows, in first-seen order. */
export function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** `_row_id` plus the given columns that the row has. */
export function project(row: Row, rowId: number, columns: readonly string[]): Row {
  const out: Row = { [ROW_ID]: rowId };
  for (const column of columns)
    if (Object.prototype.hasOwnProperty.call(row, column)) setColumn(out, column, row[column]);
  return out;
}
