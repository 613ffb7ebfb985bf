import type { CallToolResult } from '@modelcontextprotocol/server';

/** A tool result of one text block. */
export const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
