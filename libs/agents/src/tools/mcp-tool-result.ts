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
  const meta = isObject(json._meta) ? withoutProtocolKeys(json._meta) : undefined;
  if (meta) result._meta = meta;
  return result;
}

/** The prefix of the `_meta` keys MCP reserves for its own envelope (e.g. the serverInfo a 2026-07-28 server stamps). */
const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * A result's `_meta` without the protocol's envelope keys: they describe the exchange with the
 * MCP server, not the tool's answer, so callers see the same result whichever protocol era the
 * server spoke. Undefined when nothing else is left.
 */
function withoutProtocolKeys(meta: JsonObject): JsonObject | undefined {
  const kept = Object.entries(meta).filter(([key]) => !key.startsWith(PROTOCOL_META_PREFIX));
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
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
