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

/** @internal */
export function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets a column as an own property. Plain assignment would treat a column
 * named "__proto__" (legal in JSON from the network) as the prototype setter.
 * @internal
 */
export function setColumn(row: Row, column: string, value: unknown): void {
  if (column === '__proto__')
    Object.defineProperty(row, column, { value, enumerable: true, writable: true, configurable: true });
  else row[column] = value;
}
