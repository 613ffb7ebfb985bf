import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** The part of the MCP client that tool discovery needs. */
export interface ToolLister {
  listTools(params?: { cursor?: string }, options?: { timeout?: number; signal?: AbortSignal }): Promise<{ tools: Tool[]; nextCursor?: string }>;
}

export const MAX_TOOL_PAGES = 100;

/**
 * tools/list, following nextCursor until the last page. Stops with an error
 * on a repeated cursor or after MAX_TOOL_PAGES pages, so a misbehaving
 * server cannot keep the agents paging forever.
 */
export async function listAllTools(client: ToolLister, options: { timeout?: number; signal?: AbortSignal } = {}): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') return tools;
    if (seenCursors.has(cursor)) throw new Error('the server repeated a tools/list cursor');
    seenCursors.add(cursor);
  }
  throw new Error(`the server's tools/list did not end within ${MAX_TOOL_PAGES} pages`);
}
