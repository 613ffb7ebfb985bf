import type { Row } from '../protocol/row';

/**
 * Copies the cells of the rows at positions [start, end) of a selection into
 * `into[column][position - start]`: the row's own value, or undefined when the
 * row does not have the column. `rowIds` maps positions to indices of `rows`
 * (null: position = index).
 */
export type RowCellsCopier = (
  rows: readonly Row[],
  rowIds: readonly number[] | null,
  start: number,
  end: number,
  into: unknown[][],
) => void;

const hasOwn = (row: Row, column: string): boolean => Object.prototype.hasOwnProperty.call(row, column);

/**
 * Reading a cell by a column name held in a variable is a keyed lookup, and
 * `hasOwnProperty` another: about 45 ns a cell. Code with the names as literals
 * reads a row of one shape at a few ns a cell. So, as for the decoder's row
 * factory (`arrow/row-factory.ts`), the copier is generated once per answer; each
 * name is a JSON string literal, which no name can break out of.
 *
 * A plain row (prototype `Object.prototype` or null) has no inherited values
 * except `Object.prototype`'s own, so for every other name reading the property
 * gives the own value or undefined; names `Object.prototype` has (`toString`,
 * `__proto__`…) and rows of other prototypes are checked with `hasOwnProperty`.
 * Where code generation is disabled the copier reads cell by cell.
 */
export function createRowCellsCopier(columns: readonly string[]): RowCellsCopier {
  return generatedCopier(columns) ?? cellByCellCopier(columns);
}

function generatedCopier(columns: readonly string[]): RowCellsCopier | null {
  const targets = columns.map((_, index) => `const c${index} = into[${index}];`).join('\n');
  const ownRead = (name: string): string =>
    `hasOwn(row, ${JSON.stringify(name)}) ? row[${JSON.stringify(name)}] : undefined`;
  const plainRead = (name: string): string =>
    name in Object.prototype ? ownRead(name) : `row[${JSON.stringify(name)}]`;
  const assignments = (read: (name: string) => string): string =>
    columns.map((name, index) => `c${index}[at] = ${read(name)};`).join('\n');
  const source = `return (rows, rowIds, start, end, into) => {
${targets}
for (let position = start; position < end; position++) {
  const row = rows[rowIds === null ? position : rowIds[position]];
  const at = position - start;
  const prototype = Object.getPrototypeOf(row);
  if (prototype === Object.prototype || prototype === null) {
${assignments(plainRead)}
  } else {
${assignments(ownRead)}
  }
}
};`;
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a copier generated from column names escaped by JSON.stringify: no caller text is evaluated
    return (new Function('hasOwn', source) as (own: typeof hasOwn) => RowCellsCopier)(hasOwn);
  } catch {
    return null;
  }
}

function cellByCellCopier(columns: readonly string[]): RowCellsCopier {
  return (rows, rowIds, start, end, into) => {
    columns.forEach((column, columnIndex) => {
      const cells = into[columnIndex];
      for (let position = start; position < end; position += 1) {
        const row = rows[rowIds === null ? position : rowIds[position]];
        cells[position - start] = hasOwn(row, column) ? row[column] : undefined;
      }
    });
  };
}
