import type { Resource } from '@modelcontextprotocol/server';

/**
 * The concrete resources a server lists in `resources/list` (e.g. one per
 * area of a resource template). Provide it under {@link MCP_RESOURCE_DIRECTORY}
 * in the app's module; serveMcp pages through it.
 * @public
 */
export interface McpResourceDirectory {
  list(): readonly Resource[] | Promise<readonly Resource[]>;
}

/** @public */
export const MCP_RESOURCE_DIRECTORY = Symbol('MCP_RESOURCE_DIRECTORY');
