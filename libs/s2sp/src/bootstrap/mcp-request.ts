import type { IncomingMessage } from 'node:http';

/** A request to `/mcp`, with the JSON body the endpoint's middleware has read. */
export type McpRequest = IncomingMessage & { body?: unknown };
