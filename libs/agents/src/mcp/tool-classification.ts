import { S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_PARAMETERS } from '@s2sp/platform/internal';
/** ToolKind and MutationClass of an MCP tool, read from its input schema and annotations. */

export type ToolKindName = 'STANDARD' | 'S2SP_RESOURCE' | 'S2SP_CONSUMER';
export type MutationClassName =
  'UNSPECIFIED' | 'READ_ONLY' | 'IDEMPOTENT_WRITE' | 'NON_IDEMPOTENT_WRITE' | 'DESTRUCTIVE';

/**
 * S2SP resource tools take abstract_domains and mode; consumer tools take
 * abstract_data, resource_url, body_data and column_mapping; anything else
 * is a plain MCP tool.
 */
export function classifyToolKind(inputSchema: unknown): ToolKindName {
  const properties = propertiesOf(inputSchema);
  if (S2SP_RESOURCE_PARAMETERS.every((name) => name in properties)) return 'S2SP_RESOURCE';
  if (S2SP_CONSUMER_PARAMETERS.every((name) => name in properties)) return 'S2SP_CONSUMER';
  return 'STANDARD';
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

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const properties = (schema as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : {};
}
