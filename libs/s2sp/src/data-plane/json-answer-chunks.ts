import { ROW_ID } from '../protocol/row';
import type { TableSelection } from './table-selection';

/** Rows stringified per chunk: big enough to amortize the call, small enough to stream. */
const ROWS_PER_CHUNK = 512;

/**
 * The data plane's JSON answer, `{"body":[…],"total_rows":n,"columns_returned":[…]}`,
 * as a sequence of text chunks, so that no more than one chunk of rows is
 * ever held as text.
 */
export function* jsonAnswerChunks(selection: TableSelection): Generator<string> {
  yield '{"body":[';
  const total = selection.rowCount;
  for (let start = 0; start < total; start += ROWS_PER_CHUNK) {
    const end = Math.min(total, start + ROWS_PER_CHUNK);
    const rows = new Array(end - start);
    for (let position = start; position < end; position++) rows[position - start] = selection.rowAt(position);
    const text = JSON.stringify(rows);
    // The rows without the array's brackets, joined to the previous chunk by a comma.
    yield (start === 0 ? '' : ',') + text.slice(1, -1);
  }
  yield `],"total_rows":${total},"columns_returned":${JSON.stringify([ROW_ID, ...selection.columns])}}`;
}
