import { Row, ROW_ID, setColumn } from './row';
import { S2spToolError } from './s2sp-error';

/**
 * Joins abstract and body rows by `_row_id`, in the order of the abstract
 * rows (the agent's selection), then renames columns per the mapping.
 * Where both have a column, the abstract value wins: the agent may have edited it.
 * A selected row missing from the body is an error, never a silent drop.
 */
export function mergeRows(
  abstract: readonly Row[],
  body: readonly Row[] | null,
  mapping: Record<string, string>,
): Row[] {
  const bodyById = new Map<unknown, Row>();
  for (const row of body ?? []) bodyById.set(row[ROW_ID], row);

  const missing: unknown[] = [];
  const merged = abstract.map((row) => {
    if (body === null) return { ...row };
    const match = bodyById.get(row[ROW_ID]);
    if (match === undefined) {
      missing.push(row[ROW_ID]);
      return row;
    }
    const merged: Row = { ...row };
    for (const column of Object.keys(match))
      if (!Object.prototype.hasOwnProperty.call(row, column)) setColumn(merged, column, match[column]);
    return merged;
  });
  if (missing.length > 0) {
    throw new S2spToolError(
      `The body has no row for _row_id ${missing.join(', ')}: the abstract rows and the body do not belong together.`,
    );
  }
  return applyColumnMapping(merged, mapping);
}

export function applyColumnMapping(rows: readonly Row[], mapping: Record<string, string>): Row[] {
  const renames = Object.entries(mapping);
  if (renames.length === 0) return [...rows];
  const sources = new Set(Object.keys(mapping));
  const present = new Set(rows.flatMap((row) => Object.keys(row)));
  const unknown = [...sources].filter((source) => !present.has(source));
  if (unknown.length > 0 && rows.length > 0) {
    throw new S2spToolError(
      `column_mapping names column ${unknown.join(', ')}, which the rows do not have. Columns: ${[...present].join(', ')}.`,
    );
  }
  return rows.map((row) => {
    const out: Row = {};
    for (const [column, value] of Object.entries(row)) {
      if (sources.has(column)) continue;
      setColumn(out, column, value);
    }
    for (const [source, target] of renames) {
      if (!Object.prototype.hasOwnProperty.call(row, source)) continue;
      if (Object.prototype.hasOwnProperty.call(out, target)) {
        throw new S2spToolError(
          `column_mapping renames ${source} to ${target}, but the rows already have a column ${target}.`,
        );
      }
      setColumn(out, target, row[source]);
    }
    return out;
  });
}
