import type { ComponentChildren } from 'preact';

export interface Column<Row> {
  header: string;
  /** The cell's content; strings are rendered as text. */
  cell: (row: Row) => ComponentChildren;
  /** A data-testid for the column's cells (what the browser test reads). */
  testId?: (row: Row) => string | undefined;
  /** Right-aligned, for counts. */
  numeric?: boolean;
}

interface Props<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The row shown as current (aria-current), e.g. the open task. */
  isCurrent?: (row: Row) => boolean;
  caption?: string;
  testId?: string;
}

/** The console's tables: a header row of column headers, then one row per item. */
export function DataTable<Row>({ columns, rows, rowKey, isCurrent, caption, testId }: Props<Row>) {
  return (
    <table data-testid={testId}>
      {caption && <caption>{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" class={column.numeric ? 'numeric' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} aria-current={isCurrent?.(row) ? 'true' : undefined}>
            {columns.map((column) => (
              <td key={column.header} data-testid={column.testId?.(row)} class={column.numeric ? 'numeric' : undefined}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
