import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** A page of a list and the opaque cursor of the next page, if any. */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * Pages `items` for a paginated MCP list: the cursor is opaque to clients (the
 * offset of the next page, base64url-encoded); one that this server did not
 * issue is refused as invalid params, as the MCP specification asks.
 */
export function pageOf<T>(items: readonly T[], cursor: string | undefined, pageSize: number): ListPage<T> {
  const start = cursor === undefined ? 0 : offsetOf(cursor, items.length);
  const end = Math.min(items.length, start + pageSize);
  const page: ListPage<T> = { items: items.slice(start, end) };
  if (end < items.length) page.nextCursor = Buffer.from(String(end)).toString('base64url');
  return page;
}

function offsetOf(cursor: string, length: number): number {
  const decoded = /^[A-Za-z0-9_-]{1,16}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const offset = /^(0|[1-9]\d{0,8})$/.test(decoded) ? Number(decoded) : NaN;
  if (!(offset >= 0 && offset <= length))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor: pass a nextCursor this server returned');
  return offset;
}
