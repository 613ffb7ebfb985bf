import { ROW_ID } from '../protocol/row';
import type { TableSelection } from './table-selection';

/** Text per chunk (UTF-16 code units): few writes for a big answer, one for a small one. */
const CHUNK_LENGTH = 64 * 1024;

/**
 * The data plane's JSON answer, `{"body":[…],"total_rows":n,"columns_returned":[…]}`,
 * as a sequence of text chunks, so that no more than one chunk of rows is
 * ever held as text.
 */
export function* jsonAnswerChunks(selection: TableSelection): Generator<string> {
  let text = '{"body":[';
  const total = selection.rowCount;
  for (let position = 0; position < total; position++) {
    text += (position === 0 ? '' : ',') + selection.rowJsonAt(position);
    if (text.length >= CHUNK_LENGTH) {
      yield text;
      text = '';
    }
  }
  yield `${text}],"total_rows":${total},"columns_returned":${JSON.stringify([ROW_ID, ...selection.columns])}}`;
}
