import { isRow } from '../protocol/row';
import { DataPlaneError } from './data-plane-error';

/** A validated data-plane fetch: which rows and which body columns. Empty means all. */
export interface FetchRequest {
  rowIds: number[];
  columns: string[];
}

export interface FetchRequestLimits {
  maxRowIdsPerFetch: number;
  maxColumnsPerRequest: number;
  maxColumnNameLength: number;
}

/** Validates `{"row_ids": [...], "columns": [...]}`; an absent or empty body asks for everything. */
export function parseFetchRequest(body: unknown, limits: FetchRequestLimits): FetchRequest {
  if (body === undefined || body === null) return { rowIds: [], columns: [] };
  if (!isRow(body)) throw invalid('The request body must be a JSON object: {"row_ids": [...], "columns": [...]}.');
  const unknownKeys = Object.keys(body).filter((key) => key !== 'row_ids' && key !== 'columns');
  if (unknownKeys.length > 0)
    throw invalid(`Unknown field${unknownKeys.length > 1 ? 's' : ''}: ${unknownKeys.join(', ')}.`);

  const rowIds = optionalArray(body.row_ids, 'row_ids');
  if (rowIds.length > limits.maxRowIdsPerFetch) {
    throw new DataPlaneError(
      413,
      'PAYLOAD_TOO_LARGE',
      `row_ids names ${rowIds.length} rows; at most ${limits.maxRowIdsPerFetch} per fetch (limit maxRowIdsPerFetch).`,
    );
  }
  if (!rowIds.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) {
    throw invalid('row_ids must be non-negative integers.');
  }
  const columns = optionalArray(body.columns, 'columns');
  if (columns.length > limits.maxColumnsPerRequest) {
    throw new DataPlaneError(
      413,
      'PAYLOAD_TOO_LARGE',
      `columns names ${columns.length} columns; at most ${limits.maxColumnsPerRequest} (limit maxColumnsPerRequest).`,
    );
  }
  if (
    !columns.every((name) => typeof name === 'string' && name.length > 0 && name.length <= limits.maxColumnNameLength)
  ) {
    throw invalid(`columns must be non-empty strings of at most ${limits.maxColumnNameLength} characters.`);
  }
  return { rowIds: [...new Set(rowIds as number[])], columns: [...new Set(columns as string[])] };
}

function optionalArray(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalid(`${field} must be an array.`);
  return value;
}

function invalid(message: string): DataPlaneError {
  return new DataPlaneError(400, 'INVALID_REQUEST', message);
}
