import { rowsFromColumnar } from './columnar-rows';
import { isRow, Row, ROW_ID } from './row';
import { checkRowCount } from './row-count-limit';
import { S2spToolError } from './s2sp-error';

/**
 * The four string parameters every consumer tool takes, as the agent sent them.
 * @public
 */
export interface ConsumerToolArguments {
  abstract_data: string;
  resource_url?: string;
  body_data?: string;
  column_mapping?: string;
}

/** @public */
export interface ConsumerInput {
  abstract: Row[];
  resourceUrl: string | null;
  body: Row[] | null;
  columnMapping: Record<string, string>;
}

/** @public */
export interface ConsumerInputLimits {
  maxRows: number;
}

/**
 * Reads the S2SP parameters of a consumer tool. The rows of abstract_data and
 * body_data come either as a JSON array of row objects (the reference layout)
 * or in the compact layout of an `abstract_format: "columns"` answer.
 * @public
 */
export function parseConsumerInput(args: ConsumerToolArguments, limits: ConsumerInputLimits): ConsumerInput {
  const abstract = parseRows('abstract_data', args.abstract_data, limits);
  const resourceUrl = blankToNull(args.resource_url);
  const bodyText = blankToNull(args.body_data);
  if (resourceUrl !== null && bodyText !== null) {
    throw new S2spToolError('Pass either resource_url (async mode) or body_data (sync mode), not both.');
  }
  return {
    abstract,
    resourceUrl,
    body: bodyText === null ? null : parseRows('body_data', bodyText, limits),
    columnMapping: parseColumnMapping(blankToNull(args.column_mapping)),
  };
}

function blankToNull(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value;
}

function parseRows(parameter: string, text: string, limits: ConsumerInputLimits): Row[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new S2spToolError(
      `${parameter} is not valid JSON: pass the JSON array of rows from the resource tool's answer.`,
    );
  }
  let rows: unknown[];
  if (Array.isArray(parsed)) {
    checkRowCount(parameter, parsed.length, limits.maxRows);
    rows = parsed;
  } else if (isRow(parsed) && 'columns' in parsed) {
    rows = rowsFromColumnar(parameter, parsed, limits);
  } else {
    throw new S2spToolError(
      `${parameter} must be a JSON array of rows, each with an integer _row_id, or the compact form {"columns": [...], "rows": [[...], ...]}.`,
    );
  }
  const seen = new Set<number>();
  rows.forEach((row: unknown, index) => {
    if (!isRow(row)) throw new S2spToolError(`${parameter}[${index}] is not an object.`);
    const rowId = row[ROW_ID];
    if (typeof rowId !== 'number' || !Number.isSafeInteger(rowId) || rowId < 0) {
      throw new S2spToolError(`${parameter}[${index}] has no valid _row_id (a non-negative integer).`);
    }
    if (seen.has(rowId)) throw new S2spToolError(`${parameter} has _row_id ${rowId} more than once.`);
    seen.add(rowId);
  });
  return rows as Row[];
}

function parseColumnMapping(text: string | null): Record<string, string> {
  if (text === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new S2spToolError('column_mapping is not valid JSON: pass an object like {"source_column": "new_name"}.');
  }
  if (!isRow(parsed) || Object.values(parsed).some((target) => typeof target !== 'string' || target === '')) {
    throw new S2spToolError('column_mapping must be a JSON object mapping column names to non-empty new names.');
  }
  const mapping = parsed as Record<string, string>;
  if (ROW_ID in mapping || Object.values(mapping).includes(ROW_ID)) {
    throw new S2spToolError('column_mapping must not rename to or from _row_id.');
  }
  return mapping;
}
