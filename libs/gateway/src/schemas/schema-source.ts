/** What a served contract document is. */
export type SchemaKind = 'proto' | 'openrpc' | 'json-schema' | 'mcp-tool-input' | 'mcp-tool-output';

/** One contract document as a source provides it. */
export interface SchemaDocumentInit {
  /** Stable, URL-safe identifier: `GET /schemas/<id>` (letters, digits, '.', '_' and '-'). */
  id: string;
  kind: SchemaKind;
  /** Version of the contract the document belongs to (of an MCP tool's schema: the tool's version, when it declares one). */
  version: string;
  /** What the document describes, e.g. `s2sp/v1/tool.proto` or `tools.list params`. */
  describes: string;
  contentType: string;
  /** The exact bytes `GET /schemas/<id>` answers with. */
  content: Buffer;
}

/**
 * Provides contract documents to the schema registry. Sources are read once,
 * on the first request: what they serve is fixed for the life of the process.
 */
export interface SchemaSource {
  documents(): SchemaDocumentInit[];
}

/** Injection token of the registry's sources: a list of {@link SchemaSource}. */
export const SCHEMA_SOURCES = Symbol('SCHEMA_SOURCES');

/** `value` as the JSON bytes a document of this kind is served as (2-space indented, for people reading it). */
export function jsonContent(value: unknown): Buffer {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
}
