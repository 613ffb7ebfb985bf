import { columnsOf, project, Row, ROW_ID } from './row';
import { S2spToolError } from './s2sp-error';

/** @public */
export interface SplitResult {
  columns: string[];
  abstractDomains: string[];
  bodyDomains: string[];
  abstract: Row[];
  /** The tool's rows as they came, every column; row `i` has `_row_id` `i`. */
  rows: readonly Row[];
  /** `_row_id` plus the body columns of each row (computed when first read: async mode never needs it). */
  readonly body: Row[];
}

/**
 * Splits a tool result into the control plane (abstract columns) and the data
 * plane (every other column), numbering rows 0..n-1 by `_row_id`.
 * A requested column that no row has is an error, never an empty projection
 * (unless there are no rows at all: then the answer is simply empty).
 */
export function splitRows(rows: readonly Row[], abstractDomains: readonly string[]): SplitResult {
  const columns = columnsOf(rows).filter((column) => column !== ROW_ID);
  // An empty result cannot say which columns exist, and "no alerts" is not a caller error.
  const missing = rows.length === 0 ? [] : abstractDomains.filter((name) => !columns.includes(name));
  if (missing.length > 0) {
    const available = columns.length > 0 ? columns.join(', ') : '(the rows have no columns)';
    throw new S2spToolError(
      `Unknown column${missing.length > 1 ? 's' : ''} in abstract_domains: ${missing.join(', ')}. Available columns: ${available}.`,
    );
  }
  const bodyDomains = columns.filter((column) => !abstractDomains.includes(column));
  let body: Row[] | undefined;
  return {
    columns,
    abstractDomains: [...abstractDomains],
    bodyDomains,
    abstract: rows.map((row, index) => project(row, index, abstractDomains)),
    rows,
    get body(): Row[] {
      return (body ??= rows.map((row, index) => project(row, index, bodyDomains)));
    },
  };
}
