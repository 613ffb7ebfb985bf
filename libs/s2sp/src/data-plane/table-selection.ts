import { project, ROW_ID, type Row } from '../protocol/row';
import type { ResourceTable } from '../store/resource-table';

/** Which rows (by `_row_id`) and which columns of a claimed table one fetch gets. */
export class TableSelection {
  /**
   * @param rowIds distinct ids below the table's row count, ascending; null for every row.
   * @param columns the columns to return after `_row_id`, in order.
   * @param allColumns whether `columns` is every column of the table (rows are then copied whole).
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
    return this.rowIds === null ? position : this.rowIds[position]!;
  }

  /** The n-th selected row: `_row_id` first, then the selected columns the row has. */
  rowAt(position: number): Row {
    const rowId = this.rowIdAt(position);
    const row = this.table.rows[rowId]!;
    // A whole-row copy is the fast path; a tool row carrying its own `_row_id` must not overwrite ours.
    if (this.allColumns && !Object.prototype.hasOwnProperty.call(row, ROW_ID)) return { [ROW_ID]: rowId, ...row };
    return project(row, rowId, this.columns);
  }

  /** The value of one selected cell; undefined when the row does not have the column. */
  valueAt(position: number, columnIndex: number): unknown {
    const row = this.table.rows[this.rowIdAt(position)]!;
    const column = this.columns[columnIndex]!;
    return Object.prototype.hasOwnProperty.call(row, column) ? row[column] : undefined;
  }
}
