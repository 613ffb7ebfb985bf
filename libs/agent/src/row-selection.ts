import { ROW_ID, type Row } from '@s2sp/protocol';
import type { BufferedResource } from './data-buffer';
import { isObject } from './mcp-tool-result';

/** A choice of rows the model made that cannot be honoured; the message is written for the model. */
export class RowChoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RowChoiceError';
  }
}

/** How many unknown row ids an error lists. */
const LISTED_IDS = 10;

/**
 * The abstract rows of a buffered resource the model chose: those whose `_row_id` it listed in
 * `row_ids`, and/or those whose abstract columns equal the values in `where` (a list of values
 * matches any of them); all of them when it named neither.
 */
export function chooseRows(resource: BufferedResource, rowIds: unknown, where: unknown): Row[] {
  let rows: readonly Row[] = resource.abstract;
  if (rowIds !== undefined) rows = rowsWithIds(resource, rowIds);
  if (where !== undefined) rows = rows.filter(matcherOf(resource, where));
  if (rows.length === 0) {
    const chosenBy = [rowIds !== undefined ? 'row_ids' : '', where !== undefined ? 'where' : ''].filter(Boolean);
    throw new RowChoiceError(
      chosenBy.length === 0
        ? `Handle "${resource.handle}" holds no rows: there is nothing to hand over.`
        : `${chosenBy.join(' and ')} chose none of the ${resource.abstract.length} rows of handle "${resource.handle}".`,
    );
  }
  return [...rows];
}

function rowsWithIds(resource: BufferedResource, rowIds: unknown): Row[] {
  if (!Array.isArray(rowIds) || !rowIds.every((id) => Number.isSafeInteger(id) && (id as number) >= 0))
    throw new RowChoiceError('row_ids must be an array of the _row_id numbers of the rows to hand over.');
  const byId = new Map(resource.abstract.map((row) => [row[ROW_ID] as number, row]));
  const unknown = (rowIds as number[]).filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    throw new RowChoiceError(
      `Handle "${resource.handle}" has no rows with _row_id ${unknown.slice(0, LISTED_IDS).join(', ')}${
        unknown.length > LISTED_IDS ? ', …' : ''
      }.`,
    );
  }
  return [...new Set(rowIds as number[])].map((id) => byId.get(id) as Row);
}

type Scalar = string | number | boolean | null;

function matcherOf(resource: BufferedResource, where: unknown): (row: Row) => boolean {
  if (!isObject(where) || Object.keys(where).length === 0)
    throw new RowChoiceError(
      'where must be an object of abstract columns and the values to keep, e.g. {"event": "Flood Watch"}.',
    );
  const conditions = Object.entries(where).map(([column, wanted]) => {
    if (!resource.abstractDomains.includes(column)) {
      throw new RowChoiceError(
        `where names "${column}", which is not an abstract column of handle "${resource.handle}" ` +
          `(its abstract columns: ${resource.abstractDomains.join(', ')}); the other columns stay out of this conversation.`,
      );
    }
    const values = Array.isArray(wanted) ? wanted : [wanted];
    if (values.length === 0 || !values.every(isScalar))
      throw new RowChoiceError(`where.${column} must be a value or a list of values (strings, numbers, booleans).`);
    return { column, values: new Set(values) };
  });
  return (row) => conditions.every(({ column, values }) => values.has(row[column] as Scalar));
}

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
