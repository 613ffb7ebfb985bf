import { S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_PARAMETERS } from '@s2sp/protocol';
import { isObject } from './mcp-tool-result';

/**
 * What a tool is to S2SP, read from its input schema: resource tools take `abstract_domains` and
 * `mode`; consumer tools take `abstract_data`, `resource_url`, `body_data` and `column_mapping`;
 * anything else is a plain MCP tool.
 * @public
 */
export type S2spToolKind = 'resource' | 'consumer' | 'plain';

/** @public */
export function s2spToolKindOf(inputSchema: unknown): S2spToolKind {
  const properties = propertiesOf(inputSchema);
  if (S2SP_RESOURCE_PARAMETERS.every((name) => name in properties)) return 'resource';
  if (S2SP_CONSUMER_PARAMETERS.every((name) => name in properties)) return 'consumer';
  return 'plain';
}

/** The `properties` of a JSON Schema object, or an empty record. */
export function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = isObject(schema) ? schema.properties : undefined;
  return isObject(properties) ? properties : {};
}
