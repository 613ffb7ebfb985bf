import { ColumnarRowsError, rowsFromColumnar as readColumnarRows, type Row } from '@s2sp/protocol';
import { S2spToolError } from './s2sp-error';

export { type ColumnarRows, toColumnar } from '@s2sp/protocol';

/**
 * Reads the compact layout back into rows, for a caller-supplied `parameter`
 * (its name goes into the errors, tool errors for the caller to fix). The caller checks the
 * `_row_id` values, as for rows in the default layout.
 * @internal
 */
export function rowsFromColumnar(parameter: string, value: unknown, limits: { maxRows: number }): Row[] {
  try {
    return readColumnarRows(parameter, value, limits);
  } catch (error) {
    if (error instanceof ColumnarRowsError) throw new S2spToolError(error.message);
    throw error;
  }
}
