import type { JsonSchemaObject } from '@s2sp/json-rpc';

/*
 * JSON Schemas of the method results, published by rpc.discover. They describe
 * what the transcoders in ../../transcoding produce.
 */

const lowerCaseEnum = (values: string[], description?: string): JsonSchemaObject => ({
  type: 'string',
  enum: [...values, 'unspecified'],
  ...(description ? { description } : {}),
});
const isoTime: JsonSchemaObject = { type: 'string', format: 'date-time' };
const jsonObject: JsonSchemaObject = { type: 'object' };
const count: JsonSchemaObject = { type: 'integer', minimum: 0 };

const TASK_STATUS = lowerCaseEnum(['accepted', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled']);

const RESOURCE_USAGE: JsonSchemaObject = {
  type: 'object',
  properties: Object.fromEntries(
    [
      'tokens_in_context',
      'tokens_kept_out',
      'model_input_tokens',
      'model_output_tokens',
      'tool_calls',
      'wall_time_ms',
      'data_plane_bytes',
      'rows_in_context',
      'rows_kept_out',
      'cost_microdollars',
    ].map((name) => [name, count]),
  ),
  additionalProperties: false,
};

const ERROR_INFO: JsonSchemaObject = {
  type: 'object',
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    recovery_hint: { type: 'string' },
    details: jsonObject,
  },
  required: ['code', 'message'],
};

export const LIST_TOOLS_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: {
    tools: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          server: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          inputSchema: jsonObject,
          outputSchema: jsonObject,
          kind: lowerCaseEnum(['standard', 's2sp_resource', 's2sp_consumer']),
          mutationClass: lowerCaseEnum(['read_only', 'idempotent_write', 'non_idempotent_write', 'destructive']),
          requiredScopes: {
            type: 'array',
            items: { type: 'string' },
            description: 'Scopes a caller must hold to call the tool',
          },
          version: {
            type: 'string',
            description: 'The version the MCP server declares for the tool; absent when it declares none',
          },
        },
        required: ['name', 'server', 'description', 'inputSchema', 'kind', 'mutationClass', 'requiredScopes'],
      },
    },
    nextCursor: { type: 'string', description: 'Pass as cursor for the next page; absent on the last page' },
    resources: {
      type: 'array',
      description: "First page only: the MCP servers' resources (resources/list)",
      items: describedSurface({ uri: { type: 'string' } }, ['uri']),
    },
    resource_templates: {
      type: 'array',
      description: "First page only: the MCP servers' resource templates (resources/templates/list)",
      items: describedSurface({ uriTemplate: { type: 'string' } }, ['uriTemplate']),
    },
    prompts: {
      type: 'array',
      description: "First page only: the MCP servers' prompts (prompts/list)",
      items: {
        type: 'object',
        properties: {
          server: { type: 'string' },
          name: { type: 'string' },
          title: { type: 'string' },
          description: { type: 'string' },
          arguments: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, description: { type: 'string' }, required: { type: 'boolean' } },
              required: ['name', 'required'],
            },
          },
        },
        required: ['server', 'name', 'arguments'],
      },
    },
  },
  required: ['tools'],
};

/** A listed resource or resource template: its server, name, own key and optional descriptions. */
function describedSurface(key: Record<string, JsonSchemaObject>, required: string[]): JsonSchemaObject {
  return {
    type: 'object',
    properties: {
      server: { type: 'string' },
      ...key,
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      mimeType: { type: 'string' },
    },
    required: ['server', ...required, 'name'],
  };
}

export const CALL_TOOL_RESULT: JsonSchemaObject = {
  type: 'object',
  description: "MCP's CallToolResult, as the tool returned it",
  properties: {
    content: { type: 'array', items: jsonObject },
    structuredContent: jsonObject,
    isError: { type: 'boolean' },
    _meta: jsonObject,
  },
  required: ['content'],
};

export const SUBMIT_TASK_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: {
    task_id: { type: 'string', format: 'uuid' },
    status: TASK_STATUS,
    estimated_completion_ms: count,
    trace_id: { type: 'string' },
  },
  required: ['task_id', 'status'],
};

export const CANCEL_TASK_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: { task_id: { type: 'string', format: 'uuid' }, status: TASK_STATUS },
  required: ['task_id', 'status'],
};

const DATA_PLANE_REF: JsonSchemaObject = {
  type: 'object',
  description: 'The data-plane reference of a resource-tool call; its resource_url never leaves the platform',
  properties: {
    mode: lowerCaseEnum(['async', 'sync']),
    expires_at: isoTime,
    abstract_domains: { type: 'array', items: { type: 'string' } },
    body_domains: { type: 'array', items: { type: 'string' } },
    total_rows: count,
  },
  required: ['mode', 'abstract_domains', 'body_domains', 'total_rows'],
};

const TOOL_INVOCATION_RECORD: JsonSchemaObject = {
  type: 'object',
  properties: {
    invocation_id: { type: 'string' },
    tool_name: { type: 'string' },
    server: { type: 'string' },
    status: lowerCaseEnum(['success', 'error', 'timeout', 'approval_pending']),
    usage: RESOURCE_USAGE,
    data_plane: DATA_PLANE_REF,
    started_at: isoTime,
    finished_at: isoTime,
  },
  required: ['invocation_id', 'tool_name', 'server', 'status', 'usage'],
};

const STEP_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: {
    step_number: count,
    plan_step_id: { type: 'string' },
    type: lowerCaseEnum(['plan', 'retrieve', 'act', 'verify', 'critique', 'repair', 'commit']),
    outcome: lowerCaseEnum(['success', 'partial', 'failure', 'needs_repair']),
    summary: { type: 'string' },
    payload: jsonObject,
    tool_calls: { type: 'array', items: TOOL_INVOCATION_RECORD },
    usage: RESOURCE_USAGE,
    error: ERROR_INFO,
    started_at: isoTime,
    finished_at: isoTime,
  },
  required: ['step_number', 'type', 'outcome', 'tool_calls', 'usage'],
};

export const TASK_SNAPSHOT_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: {
    task_id: { type: 'string', format: 'uuid' },
    status: TASK_STATUS,
    steps: { type: 'array', items: STEP_RESULT },
    usage: RESOURCE_USAGE,
    result: jsonObject,
    error: ERROR_INFO,
    created_at: isoTime,
    updated_at: isoTime,
    completed_at: isoTime,
    trace_id: { type: 'string' },
  },
  required: ['task_id', 'status', 'steps', 'usage'],
};

export const LIST_TASKS_RESULT: JsonSchemaObject = {
  type: 'object',
  properties: {
    tasks: {
      type: 'array',
      description: "The caller's own tasks, newest first",
      items: {
        type: 'object',
        properties: {
          task_id: { type: 'string', format: 'uuid' },
          status: TASK_STATUS,
          agent_type: { type: 'string' },
          objective: { type: 'string', description: "The task's objective.natural_language" },
          plan_steps: { type: 'integer', minimum: 0, description: "Steps in the task's plan" },
          usage: RESOURCE_USAGE,
          created_at: isoTime,
          updated_at: isoTime,
          completed_at: isoTime,
        },
        required: ['task_id', 'status', 'plan_steps', 'usage'],
      },
    },
    next_cursor: { type: 'string', description: 'Pass as cursor for the next page; absent on the last page' },
  },
  required: ['tasks'],
};

export const INVOKE_TOOL_V2_RESULT: JsonSchemaObject = {
  type: 'object',
  description:
    's2sp.v2.InvokeToolResponse as JSON: the tool’s result with usage, provenance and, for S2SP resource tools, the data-plane reference',
  properties: {
    invocation_id: { type: 'string' },
    result: CALL_TOOL_RESULT,
    error: ERROR_INFO,
    usage: RESOURCE_USAGE,
    provenance: {
      type: 'object',
      properties: {
        server: { type: 'string' },
        tool: { type: 'string' },
        retrieved_at: isoTime,
        content_sha256: { type: 'string' },
      },
      required: ['server', 'tool'],
    },
    data_plane: DATA_PLANE_REF,
    trace_id: { type: 'string' },
  },
  required: ['invocation_id', 'result', 'usage'],
};

const RESOURCE_CONTENTS: JsonSchemaObject = {
  type: 'object',
  description:
    "One of the resource's contents, as MCP's resources/read result spells it: text, or binary data as base64",
  properties: {
    uri: { type: 'string' },
    mimeType: { type: 'string' },
    text: { type: 'string' },
    blob: { type: 'string', contentEncoding: 'base64' },
  },
  required: ['uri'],
};

export const READ_RESOURCE_RESULT: JsonSchemaObject = {
  type: 'object',
  description: 's2sp.v2.ReadResourceResponse as JSON, with the server and uri asked for',
  properties: {
    server: { type: 'string' },
    uri: { type: 'string' },
    contents: { type: 'array', items: RESOURCE_CONTENTS },
    error: {
      ...ERROR_INFO,
      description:
        'Set when the server answered with an MCP error other than a refusal, e.g. -32602 for a URI it does not know',
    },
    trace_id: { type: 'string' },
  },
  required: ['server', 'uri', 'contents'],
};

/**
 * agent.streamTask's events (Server-Sent Events, each `data` a JSON-RPC response):
 * `snapshot` (a task snapshot: first, and last once the task has ended) and `step` (one step result).
 */
export const TASK_STREAM_EVENT_RESULT: JsonSchemaObject = {
  description: 'The result of one event: a task snapshot (event "snapshot") or a step result (event "step")',
  oneOf: [TASK_SNAPSHOT_RESULT, STEP_RESULT],
};
