import { s2spToolKindOf, type S2spToolKind } from '@s2sp/agent';
/** ToolKind and MutationClass of an MCP tool, read from its input schema and annotations. */

export type ToolKindName = 'STANDARD' | 'S2SP_RESOURCE' | 'S2SP_CONSUMER';
export type MutationClassName =
  'UNSPECIFIED' | 'READ_ONLY' | 'IDEMPOTENT_WRITE' | 'NON_IDEMPOTENT_WRITE' | 'DESTRUCTIVE';

const TOOL_KIND: Record<S2spToolKind, ToolKindName> = {
  resource: 'S2SP_RESOURCE',
  consumer: 'S2SP_CONSUMER',
  plain: 'STANDARD',
};

/** The ToolKind of a tool's input schema, as @s2sp/agent reads it. */
export function classifyToolKind(inputSchema: unknown): ToolKindName {
  return TOOL_KIND[s2spToolKindOf(inputSchema)];
}

/**
 * MutationClass from the MCP tool annotations, strongest hint first:
 * readOnlyHint → READ_ONLY, destructiveHint → DESTRUCTIVE,
 * idempotentHint → IDEMPOTENT_WRITE, other annotations → NON_IDEMPOTENT_WRITE.
 * A tool with no annotations at all is UNSPECIFIED: the server said nothing,
 * and MCP's own defaults (destructiveHint true unless read-only) would call
 * every unannotated tool destructive.
 */
export function classifyMutation(annotations: unknown): MutationClassName {
  if (typeof annotations !== 'object' || annotations === null) return 'UNSPECIFIED';
  const hints = annotations as { readOnlyHint?: unknown; destructiveHint?: unknown; idempotentHint?: unknown };
  if (hints.readOnlyHint === true) return 'READ_ONLY';
  if (hints.destructiveHint === true) return 'DESTRUCTIVE';
  if (hints.idempotentHint === true) return 'IDEMPOTENT_WRITE';
  if (hints.readOnlyHint === undefined && hints.destructiveHint === undefined && hints.idempotentHint === undefined) {
    return 'UNSPECIFIED';
  }
  return 'NON_IDEMPOTENT_WRITE';
}
