import { S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_EXTENSION_PARAMETERS } from '@s2sp/protocol';
import type { McpToolDefinition } from './mcp-client';
import { propertiesOf, s2spToolKindOf, type S2spToolKind } from './tool-kind';

/**
 * A tool as the model is shown it: for S2SP tools, with the parameters that carry data or
 * capabilities replaced by a handle and a choice of rows.
 * @public
 */
export interface S2spModelTool {
  /** Unique in the session: the MCP name, prefixed with `<server>__` where two servers share it. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments the model writes. */
  readonly inputSchema: Record<string, unknown>;
  readonly kind: S2spToolKind;
  readonly serverId: string;
  /** The tool's name on its MCP server. */
  readonly mcpName: string;
}

const RESOURCE_NOTE =
  'S2SP: answers, for every row, only the columns you name in abstract_domains (and _row_id), with a handle. ' +
  'The other columns stay with the application: to act on rows, pass the handle to a consumer tool.';

const CONSUMER_NOTE =
  'S2SP: acts on rows a resource tool answered. Name its handle and, optionally, which rows (row_ids and/or where); ' +
  'the application hands over their full data.';

/** Parameters the session sets on a resource call itself: the model does not choose them. */
const RESOURCE_PARAMETERS_SET_BY_SESSION = ['mode', ...S2SP_RESOURCE_EXTENSION_PARAMETERS];

const CONSUMER_CHOICE_PROPERTIES: Record<string, unknown> = {
  handle: { type: 'string', description: 'The handle a resource tool answered.' },
  row_ids: {
    type: 'array',
    items: { type: 'integer', minimum: 0 },
    description: 'The _row_id of each row to hand over. Omit it (and where) for every row of the handle.',
  },
  where: {
    type: 'object',
    description:
      'Keep only rows whose abstract columns have these values, e.g. {"event": "Flood Watch"}; a list of values matches any of them.',
    additionalProperties: true,
  },
};

const COLUMN_MAPPING_PROPERTY = {
  type: 'object',
  additionalProperties: { type: 'string' },
  description:
    'Optional renames of the rows\' columns to the names this tool expects: {"their name": "this tool\'s name"}.',
};

/**
 * The model's view of every tool of every server, names made unique: what S2spAgentSession shows,
 * for a layer of your own.
 * @public
 */
export function s2spModelTools(toolsByServer: ReadonlyMap<string, readonly McpToolDefinition[]>): S2spModelTool[] {
  const counts = new Map<string, number>();
  for (const tools of toolsByServer.values())
    for (const tool of tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const modelTools: S2spModelTool[] = [];
  for (const [serverId, tools] of toolsByServer) {
    for (const tool of tools) {
      const name =
        (counts.get(tool.name) ?? 0) > 1 ? `${serverId.replace(/[^A-Za-z0-9_-]/g, '_')}__${tool.name}` : tool.name;
      modelTools.push(modelToolOf(tool, serverId, name));
    }
  }
  return modelTools;
}

function modelToolOf(tool: McpToolDefinition, serverId: string, name: string): S2spModelTool {
  const kind = s2spToolKindOf(tool.inputSchema);
  const description = tool.description ?? tool.title ?? '';
  const base = { name, kind, serverId, mcpName: tool.name };
  switch (kind) {
    case 'plain':
      return { ...base, description, inputSchema: tool.inputSchema };
    case 'resource':
      return {
        ...base,
        description: joinNote(description, RESOURCE_NOTE),
        inputSchema: reshape(tool.inputSchema, RESOURCE_PARAMETERS_SET_BY_SESSION, {}, ['abstract_domains']),
      };
    case 'consumer':
      return {
        ...base,
        description: joinNote(description, CONSUMER_NOTE),
        inputSchema: reshape(
          tool.inputSchema,
          S2SP_CONSUMER_PARAMETERS,
          { ...CONSUMER_CHOICE_PROPERTIES, column_mapping: COLUMN_MAPPING_PROPERTY },
          ['handle'],
        ),
      };
  }
}

/** The schema without `removed` properties, with `added` ones, and `required` extended. */
function reshape(
  schema: Record<string, unknown>,
  removed: readonly string[],
  added: Record<string, unknown>,
  required: readonly string[],
): Record<string, unknown> {
  const properties = Object.fromEntries(
    Object.entries(propertiesOf(schema)).filter(([property]) => !removed.includes(property)),
  );
  const kept = Array.isArray(schema.required)
    ? schema.required.filter((property): property is string => typeof property === 'string' && property in properties)
    : [];
  return {
    ...schema,
    type: 'object',
    properties: { ...properties, ...added },
    required: [...new Set([...kept, ...required])],
  };
}

function joinNote(description: string, note: string): string {
  return description === '' ? note : `${description}\n\n${note}`;
}
