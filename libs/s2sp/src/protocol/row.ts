/**
 * One record of a tabular tool result.
 * @public
 */
export type Row = Record<string, unknown>;

/**
 * The reconciliation key S2SP adds to every row.
 * @internal
 */
export const ROW_ID = '_row_id';

export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every column seen across the rows, in first-seen order. */
export function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/**
 * Sets a column as an own property. Plain assignment would treat a column
 * named "__proto__" (legal in JSON from the network) as the prototype setter.
 */
export function setColumn(row: Row, column: string, value: unknown): void {
  if (column === '__proto__')
    Object.defineProperty(row, column, { value, enumerable: true, writable: true, configurable: true });
  else row[column] = value;
}

/** `_row_id` plus the given columns that the row has. */
export function project(row: Row, rowId: number, columns: readonly string[]): Row {
  const out: Row = { [ROW_ID]: rowId };
  for (const column of columns)
    if (Object.prototype.hasOwnProperty.call(row, column)) setColumn(out, column, row[column]);
  return out;
}
