/** The most pages one MCP list may take; past it the server is taken to be misbehaving. */
export const MAX_LIST_PAGES = 100;

/**
 * Follows an MCP list's `nextCursor` until its last page. Stops with an error
 * on a repeated cursor or after MAX_LIST_PAGES pages, so a misbehaving server
 * cannot keep the agents paging forever.
 */
export async function listAllPages<T>(
  method: string,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let count = 0; count < MAX_LIST_PAGES; count++) {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') return items;
    if (seenCursors.has(cursor)) throw new Error(`the server repeated a ${method} cursor`);
    seenCursors.add(cursor);
  }
  throw new Error(`the server's ${method} did not end within ${MAX_LIST_PAGES} pages`);
}
