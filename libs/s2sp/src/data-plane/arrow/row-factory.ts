import { ROW_ID_FIELD_NAME } from './arrow-wire-format';
import type { CellReader } from './batch-cell-reader';

/** Builds `{ _row_id, ...every column }` for the row at `index` of a batch. */
export type RowFactory = (rowId: number, index: number, cells: readonly CellReader[]) => Record<string, unknown>;

/**
 * V8 builds an object from a literal with one property per column many times faster than
 * by assigning keys one by one (measured with bench/data-plane/arrow-vs-json.ts), so the
 * literal is generated once per answer. The generated source holds only indices; the
 * column names stay data (computed keys), so no name can change the code, and a computed
 * `__proto__` key makes an own property. Returns null where code generation is disabled.
 */
export function createRowFactory(columnNames: readonly string[]): RowFactory | null {
  const properties = columnNames.map((_, column) => `[names[${column}]]: cells[${column}](index)`);
  const source = `return (rowId, index, cells) => ({ ${JSON.stringify(ROW_ID_FIELD_NAME)}: rowId, ${properties.join(', ')} });`;
  try {
    return (new Function('names', source) as (names: readonly string[]) => RowFactory)([...columnNames]);
  } catch {
    return null;
  }
}
