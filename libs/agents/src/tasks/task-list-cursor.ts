import { isUuid } from '@s2sp/platform/internal';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../common/opaque-cursor';
import { InvalidRequestError } from '../common/request-errors';
import type { TaskStatusName } from './task-records';

/** Where a ListTasks page ended: the last task listed (by creation time, then id) and the status filter used. */
export interface TaskListPosition {
  createdAtMs: number;
  taskId: string;
  /** The status filter the listing was made with ('' = every status). */
  status: TaskStatusName | '';
}

const MAX_CURSOR_LENGTH = 256;

/**
 * Opaque ListTasks cursors: base64url of {t: created at (ms), i: task id, s: status filter}.
 * A cursor only says where to continue; the listing is always of the verified
 * caller's own tasks, so an altered cursor can skip tasks but never show another
 * caller's. Anything that does not decode to a position is refused with a clear
 * INVALID_ARGUMENT, as is a cursor used with another status filter.
 */
export function encodeTaskListCursor(position: TaskListPosition): string {
  return encodeOpaqueCursor({ t: position.createdAtMs, i: position.taskId, s: position.status });
}

export function decodeTaskListCursor(cursor: string, status: TaskStatusName | ''): TaskListPosition {
  const invalid = () =>
    new InvalidRequestError(
      'cursor',
      'not a cursor from a previous ListTasks page (malformed or modified); start again with an empty cursor',
    );
  const { t, i, s } = decodeOpaqueCursor(cursor, MAX_CURSOR_LENGTH, invalid);
  if (!Number.isSafeInteger(t) || (t as number) < 0 || typeof i !== 'string' || !isUuid(i) || typeof s !== 'string')
    throw invalid();
  if (s !== status) {
    throw new InvalidRequestError(
      'cursor',
      `the cursor was issued for status filter "${s}" but this request filters "${status}"; repeat the same filter or start again with an empty cursor`,
    );
  }
  return { createdAtMs: t as number, taskId: i, status };
}
