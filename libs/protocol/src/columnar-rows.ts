import { isRow, type Row, ROW_ID, setColumn } from './row';

/**
 * Rows in the compact layout: the column names once, then one array of
 * values per row in that order. `_row_id` is the first column.
 * @public
 */
export interface ColumnarRows {
  columns: string[];
  rows: unknown[][];
}

/**
 * Thrown by rowsFromColumnar for a value that is not rows in the compact layout; the message
 * names the parameter and what is wrong, for the caller to pass on.
 * @internal
 */
export class ColumnarRowsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ColumnarRowsError';
  }
}

/**
 * Lays out rows under `columns` (`_row_id` first). A column a row lacks is
 * null: the compact layout cannot tell a missing value from a null one.
 * @public
 */
export function toColumnar(rows: readonly Row[], columns: readonly string[]): ColumnarRows {
  const names = [ROW_ID, ...columns.filter((column) => column !== ROW_ID)];
  return {
    columns: names,
    rows: rows.map((row) => names.map((name) => (Object.prototype.hasOwnProperty.call(row, name) ? row[name] : null))),
  };
}

/**
 * Reads the compact layout back into rows, for a caller-supplied `parameter`
 * (its name goes into the errors). The caller checks the `_row_id` values,
 * as for rows in the default layout.
 * @internal
 */
export function rowsFromColumnar(parameter: string, value: unknown, limits: { maxRows: number }): Row[] {
  if (!isRow(value))
    throw new ColumnarRowsError(
      `${parameter} in the compact form must be an object {"columns": [...], "rows": [[...], ...]}.`,
    );
  const { columns, rows } = value;
  if (!Array.isArray(columns) || columns.some((name) => typeof name !== 'string')) {
    throw new ColumnarRowsError(`${parameter}.columns must be an array of column names.`);
  }
  if (new Set(columns).size !== columns.length)
    throw new ColumnarRowsError(`${parameter}.columns names a column more than once.`);
  if (!columns.includes(ROW_ID)) throw new ColumnarRowsError(`${parameter}.columns must include ${ROW_ID}.`);
  if (!Array.isArray(rows))
    throw new ColumnarRowsError(`${parameter}.rows must be an array of rows, each an array of values.`);
  if (rows.length > limits.maxRows)
    throw new ColumnarRowsError(`${parameter} has ${rows.length} rows; at most ${limits.maxRows} are allowed.`);
  return rows.map((values: unknown, index) => {
    if (!Array.isArray(values) || values.length !== columns.length) {
      throw new ColumnarRowsError(
        `${parameter}.rows[${index}] must be an array of ${columns.length} values, one per column.`,
      );
    }
    const row: Row = {};
    (columns as string[]).forEach((name, position) => setColumn(row, name, values[position]));
    return row;
  });
}
