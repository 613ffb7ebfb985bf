import { setColumn, type Row } from '../protocol/row';

/**
 * One stored block of a resource table, by columns:
 * `{"rows":n,"columns":[name…],"values":[[value of row 0…n-1]…],"absent":{"<column index>":[row offset…]}}`.
 * A cell a row does not have (or holds `undefined`, which JSON drops from an
 * object) is listed in `absent`, so rows come back with exactly the columns
 * they had; `absent` is left out when every row has every column.
 */
export function encodeColumnBlock(
  rows: readonly Row[],
  start: number,
  end: number,
  columns: readonly string[],
): string {
  const values: unknown[][] = new Array(columns.length);
  let absent: Record<number, number[]> | undefined;
  for (let column = 0; column < columns.length; column++) {
    const name = columns[column];
    // `row.toString` or `row.__proto__` of a row without that column is Object.prototype's.
    const inherited = name in Object.prototype;
    const cells: unknown[] = new Array(end - start);
    for (let index = start; index < end; index++) {
      const row = rows[index];
      const value = inherited && !Object.prototype.hasOwnProperty.call(row, name) ? undefined : row[name];
      if (value === undefined) {
        cells[index - start] = null;
        ((absent ??= {})[column] ??= []).push(index - start);
      } else {
        cells[index - start] = value;
      }
    }
    values[column] = cells;
  }
  return JSON.stringify(
    absent === undefined ? { rows: end - start, columns, values } : { rows: end - start, columns, values, absent },
  );
}

/**
 * Appends the rows of a parsed column block to `into`; false when `parsed` is
 * not a well-formed block (nothing is appended then).
 */
export function decodeColumnBlock(parsed: unknown, into: Row[]): boolean {
  if (!isColumnBlock(parsed)) return false;
  const { rows, columns, values } = parsed;
  const absent = absentCells(parsed.absent, columns.length, rows);
  if (absent === null) return false;
  for (let offset = 0; offset < rows; offset++) {
    const row: Row = {};
    for (let column = 0; column < columns.length; column++) {
      if (absent[column]?.has(offset)) continue;
      setColumn(row, columns[column], values[column][offset]);
    }
    into.push(row);
  }
  return true;
}

interface ColumnBlock {
  rows: number;
  columns: string[];
  values: unknown[][];
  absent?: unknown;
}

function isColumnBlock(value: unknown): value is ColumnBlock {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const block = value as Partial<ColumnBlock>;
  return (
    Number.isSafeInteger(block.rows) &&
    block.rows! >= 0 &&
    Array.isArray(block.columns) &&
    block.columns.every((column) => typeof column === 'string') &&
    Array.isArray(block.values) &&
    block.values.length === block.columns.length &&
    block.values.every((cells) => Array.isArray(cells) && cells.length === block.rows)
  );
}

/** The absent cells by column index, or null when `absent` is malformed. */
function absentCells(absent: unknown, columnCount: number, rowCount: number): Array<Set<number> | undefined> | null {
  const byColumn: Array<Set<number> | undefined> = new Array(columnCount);
  if (absent === undefined) return byColumn;
  if (typeof absent !== 'object' || absent === null || Array.isArray(absent)) return null;
  for (const [key, offsets] of Object.entries(absent)) {
    const column = Number(key);
    if (!Number.isInteger(column) || column < 0 || column >= columnCount || !Array.isArray(offsets)) return null;
    if (!offsets.every((offset) => Number.isInteger(offset) && offset >= 0 && offset < rowCount)) return null;
    byColumn[column] = new Set(offsets as number[]);
  }
  return byColumn;
}
