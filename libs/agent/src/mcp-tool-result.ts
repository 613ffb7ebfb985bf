/**
 * What an MCP client's `callTool` answers, as far as this package reads it (the v1 and v2 SDKs'
 * results both fit; every field is checked before it is used).
 * @public
 */
export interface McpToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  _meta?: unknown;
}

/** @internal */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The content blocks of a result that are objects with a `type`. */
export function contentBlocksOf(result: McpToolResult): Array<Record<string, unknown> & { type: string }> {
  return Array.isArray(result.content)
    ? result.content.filter(
        (block): block is Record<string, unknown> & { type: string } =>
          isObject(block) && typeof block.type === 'string',
      )
    : [];
}

/**
 * The text blocks of a result, joined by newlines (what a model reads of it).
 * @internal
 */
export function textOfResult(result: McpToolResult): string {
  return contentBlocksOf(result)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}
