import { project, ROW_ID } from '../protocol/row';
import type { ResourceTable } from '../store/resource-table';
import { createRowCellsCopier, type RowCellsCopier } from './row-cells-copier';

/**
 * Which rows (by `_row_id`) and which columns of a claimed table one fetch gets.
 * @public
 */
export class TableSelection {
  private copier: RowCellsCopier | undefined;

  /**
   * @param rowIds distinct ids below the table's row count, ascending; null for every row.
   * @param columns the columns to return after `_row_id`, in order.
   * @param allColumns whether `columns` is every column of the table (rows are then written whole).
   */
  constructor(
    private readonly table: ResourceTable,
    private readonly rowIds: readonly number[] | null,
    readonly columns: readonly string[],
    private readonly allColumns: boolean,
  ) {}

  get rowCount(): number {
    return this.rowIds === null ? this.table.rowCount : this.rowIds.length;
  }

  /** `_row_id` of the n-th selected row. */
  rowIdAt(position: number): number {
    return this.rowIds === null ? position : this.rowIds[position];
  }

  /**
   * The JSON text of the n-th selected row: `_row_id` first, then the selected columns the row has.
   * A whole row is stringified as it is and `_row_id` spliced into the text: copying it into a new
   * object first costs up to twice as much for wide rows.
   */
  rowJsonAt(position: number): string {
    const rowId = this.rowIdAt(position);
    const row = this.table.rows[rowId];
    // A tool row carrying its own `_row_id` must not overwrite ours: it goes through the projection.
    if (!this.allColumns || Object.prototype.hasOwnProperty.call(row, ROW_ID))
      return JSON.stringify(project(row, rowId, this.columns));
    const cells = JSON.stringify(row);
    return cells.length === 2 ? `{"${ROW_ID}":${rowId}}` : `{"${ROW_ID}":${rowId},${cells.slice(1)}`;
  }

  /**
   * The cells of the selected rows at positions [start, end), column by column:
   * `into[column][position - start]`, undefined where the row does not have the column.
   */
  readCells(start: number, end: number, into: unknown[][]): void {
    this.copier ??= createRowCellsCopier(this.columns);
    this.copier(this.table.rows, this.rowIds, start, end, into);
  }
}
