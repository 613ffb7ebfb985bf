import type { Tool } from '@modelcontextprotocol/client';
import { listAllPages } from './list-all-pages';

/** The part of the MCP client that tool discovery needs. */
export interface ToolLister {
  listTools(
    params?: { cursor?: string },
    options?: { timeout?: number; signal?: AbortSignal },
  ): Promise<{ tools: Tool[]; nextCursor?: string }>;
}

/** tools/list, every page (see {@link listAllPages}). */
export function listAllTools(
  client: ToolLister,
  options: { timeout?: number; signal?: AbortSignal } = {},
): Promise<Tool[]> {
  return listAllPages('tools/list', async (cursor) => {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
    return { items: result.tools, nextCursor: result.nextCursor };
  });
}
