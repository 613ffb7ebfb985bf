import type { JsonObject } from '@s2sp/contracts';

/** An MCP CallToolResult reduced to plain JSON (safe to put in a google.protobuf.Struct). */
export interface McpToolResult {
  content: JsonObject[];
  structuredContent?: JsonObject;
  isError: boolean;
  _meta?: JsonObject;
}

/** Normalises what the MCP client returned (already schema-checked by it) into plain JSON. */
export function normalizeToolResult(raw: {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  _meta?: unknown;
}): McpToolResult {
  const json = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  const content = Array.isArray(json.content) ? json.content.filter(isObject) : [];
  const result: McpToolResult = { content, isError: json.isError === true };
  if (isObject(json.structuredContent)) result.structuredContent = json.structuredContent;
  if (isObject(json._meta)) result._meta = json._meta;
  return result;
}

/** The text blocks of a result, joined by newlines (what a model reads of it). */
export function textOfContent(result: McpToolResult): string {
  return result.content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
}

/** The result as the output Struct of ToolInvocationResponse: content, structuredContent, isError, _meta. */
export function toolResultAsJson(result: McpToolResult): JsonObject {
  const json: JsonObject = { content: result.content, isError: result.isError };
  if (result.structuredContent) json.structuredContent = result.structuredContent;
  if (result._meta) json._meta = result._meta;
  return json;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
