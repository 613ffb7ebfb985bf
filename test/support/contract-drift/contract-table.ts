import { type OpenRpcDocument, type OpenRpcMethod } from '@s2sp/json-rpc/internal';
import { DEADLINE_PARAM } from '../../../libs/json-rpc/src/call-deadline';
import { resourceToolOutputSchema } from '@s2sp/core';
import { s2spConsumerParameters } from '../../../libs/s2sp/src/consumer/s2sp-consumer-tool.decorator';
import { s2spResourceParameters } from '../../../libs/s2sp/src/resource/s2sp-resource-tool.decorator';
import { z } from 'zod';
import type { Correspondence, MessageRules, Schema } from './contract-checker';
import { gatewayOpenRpcDocument } from './gateway-openrpc';

/*
 * The declared correspondence between the published JSON shapes and the
 * proto messages (the canonical definitions): which JSON-RPC
 * method's params / result and which MCP tool schema pairs with which
 * message, and every deliberate difference with its reason.
 */

/** Where a pair's JSON side comes from: a method's params or result in the OpenRPC document. */
export interface MethodPart {
  method: string;
  part: 'params' | 'result';
}

/** A published shape with no proto counterpart field by field, and why. */
export interface OpaquePart extends MethodPart {
  reason: string;
}

export interface MethodCorrespondence extends MethodPart {
  proto: string;
  rules?: Record<string, MessageRules>;
}

const EDGE_PARAMS: Record<string, string> = {
  [DEADLINE_PARAM]: 'consumed by the JSON-RPC engine; the agents get the deadline as the gRPC call deadline',
};

const GATEWAY_FILLED = {
  trace: "filled by the gateway from the request's traceparent header",
  deadline: 'the call deadline travels as the gRPC deadline',
};

const IDEMPOTENCY_KEY_REPLAY =
  'consumed by the gateway, which replays the first answer to a retry carrying the same key';

const USAGE_ZERO_WHEN_UNSET = 'the gateway reports an all-zero usage when the agents leave it unset';

const MCP_CAMEL_CASE = "MCP's Tool shape spells its members in camelCase";

const MCP_CONTENT_BLOCK =
  "published as an open object: the gateway rebuilds MCP's content block JSON ({type, ...}, binary data base64) from the typed block, and MCP defines that JSON";

/** tools.call and v2.tools.call take MCP's tools/call params; the InvokeTool requests of both versions carry them. */
function toolCallParamsRules(protoOnly: Record<string, string> = {}): MessageRules {
  return {
    renamed: {
      name: { proto: 'tool_name', reason: "MCP's tools/call params call it name" },
      arguments: { proto: 'input_params', reason: "MCP's tools/call params call them arguments" },
    },
    jsonOnly: { ...EDGE_PARAMS, idempotency_key: IDEMPOTENCY_KEY_REPLAY },
    protoOnly: {
      invocation_id: 'the gateway gives every call a fresh UUID v7',
      tool_version: "not offered: MCP's tools/call names no version",
      caller_auth: 'filled by the gateway from the verified caller (never taken from params)',
      trace: GATEWAY_FILLED.trace,
      mutation_class: 'not offered: the agents check it only when a caller states one',
      requires_human_approval: 'not offered: the agents have no approval flow',
      count_body_tokens: "not offered: an accounting option for the agents' own callers",
      ...protoOnly,
    },
  };
}

/** Which proto message each method's params and result pair with. */
const SURFACES_FROM_V2 =
  "the first page's resources, templates and prompts come from s2sp.v2.ToolService/ListSurfaces (s2sp.v1 is frozen once released)";

export const METHOD_CORRESPONDENCES: readonly MethodCorrespondence[] = [
  {
    method: 'agent.submitTask',
    part: 'params',
    proto: 's2sp.v1.AgentTask',
    rules: {
      's2sp.v1.AgentTask': {
        renamed: {
          objective: {
            proto: 'objective.natural_language',
            reason:
              'agent.submitTask takes the objective as one text; structured goals and success criteria are not offered at the edge',
          },
        },
        requiredness: {
          objective:
            'the gateway asks every JSON-RPC caller for an objective; the agents also accept a task that states its goals in TaskObjective.goals',
        },
        protoOnly: {
          parent_task_id: 'subtasks are created by the agents, never by a JSON-RPC caller',
          agent_type: 'the gateway always submits an s2sp-pipeline task',
          context_refs: 'not offered by agent.submitTask',
          trace: GATEWAY_FILLED.trace,
          auth: 'filled by the gateway from the verified caller (never taken from params)',
          deadline: GATEWAY_FILLED.deadline,
          schema_version: 'the gateway writes the AgentTask version it speaks',
        },
        jsonOnly: EDGE_PARAMS,
      },
      's2sp.v1.ResourceCallStep': {
        requiredness: {
          server:
            'the gateway asks JSON-RPC plans to name the MCP server; the agents resolve an empty server by tool name',
        },
      },
      's2sp.v1.ConsumerCallStep': {
        requiredness: {
          server:
            'the gateway asks JSON-RPC plans to name the MCP server; the agents resolve an empty server by tool name',
          input_step_id:
            "the gateway asks JSON-RPC plans to name the rows' step; the agents default an empty one to the latest resource or filter step",
        },
      },
    },
  },
  {
    method: 'agent.submitTask',
    part: 'result',
    proto: 's2sp.v1.SubmitTaskResponse',
    rules: {
      's2sp.v1.SubmitTaskResponse': {
        renamed: {
          trace_id: { proto: 'trace.trace_id', reason: 'results carry only the trace id of the TraceContext' },
        },
      },
    },
  },
  {
    method: 'agent.getTask',
    part: 'params',
    proto: 's2sp.v1.GetTaskRequest',
    rules: { 's2sp.v1.GetTaskRequest': { jsonOnly: EDGE_PARAMS } },
  },
  {
    // The agents' StreamTask takes the same request.
    method: 'agent.streamTask',
    part: 'params',
    proto: 's2sp.v1.GetTaskRequest',
    rules: { 's2sp.v1.GetTaskRequest': { jsonOnly: EDGE_PARAMS } },
  },
  {
    // GetTaskResponse only wraps the snapshot; agent.getTask answers the snapshot itself.
    method: 'agent.getTask',
    part: 'result',
    proto: 's2sp.v1.TaskSnapshot',
    rules: {
      's2sp.v1.TaskSnapshot': {
        renamed: {
          trace_id: { proto: 'trace.trace_id', reason: 'results carry only the trace id of the TraceContext' },
        },
        requiredness: { usage: USAGE_ZERO_WHEN_UNSET },
      },
      's2sp.v1.AgentStepResult': {
        protoOnly: {
          task_id: 'the snapshot names its task once, not on every step',
          trace: "a step's trace context stays inside the platform; the snapshot carries the task's trace id",
        },
        requiredness: { usage: USAGE_ZERO_WHEN_UNSET },
      },
      's2sp.v1.ToolInvocationRecord': { requiredness: { usage: USAGE_ZERO_WHEN_UNSET } },
      's2sp.v1.DataPlaneRef': {
        protoOnly: {
          resource_url:
            "a single-use capability for the platform's consumer servers; it never leaves the platform in a snapshot",
        },
      },
    },
  },
  {
    method: 'agent.listTasks',
    part: 'params',
    proto: 's2sp.v2.ListTasksRequest',
    rules: { 's2sp.v2.ListTasksRequest': { jsonOnly: EDGE_PARAMS } },
  },
  {
    method: 'agent.listTasks',
    part: 'result',
    proto: 's2sp.v2.ListTasksResponse',
    rules: { 's2sp.v2.TaskSummary': { requiredness: { usage: USAGE_ZERO_WHEN_UNSET } } },
  },
  {
    method: 'agent.cancelTask',
    part: 'params',
    proto: 's2sp.v1.CancelTaskRequest',
    rules: {
      's2sp.v1.CancelTaskRequest': {
        requiredness: {
          mode: 'the gateway asks JSON-RPC callers to choose soft or hard; the agents treat an unset mode as soft',
        },
        jsonOnly: { ...EDGE_PARAMS, idempotency_key: IDEMPOTENCY_KEY_REPLAY },
      },
    },
  },
  { method: 'agent.cancelTask', part: 'result', proto: 's2sp.v1.CancelTaskResponse' },
  {
    method: 'resources.read',
    part: 'params',
    proto: 's2sp.v2.ReadResourceRequest',
    rules: {
      's2sp.v2.ReadResourceRequest': {
        jsonOnly: EDGE_PARAMS,
        protoOnly: {
          caller_auth: 'filled by the gateway from the verified caller (never taken from params)',
          trace: GATEWAY_FILLED.trace,
        },
      },
    },
  },
  {
    method: 'resources.read',
    part: 'result',
    proto: 's2sp.v2.ReadResourceResponse',
    rules: {
      's2sp.v2.ReadResourceResponse': {
        renamed: {
          trace_id: { proto: 'trace.trace_id', reason: 'results carry only the trace id of the TraceContext' },
        },
        jsonOnly: { server: 'the server asked for, echoed', uri: 'the URI asked for, echoed' },
      },
      's2sp.v2.ResourceContents': {
        renamed: { mimeType: { proto: 'mime_type', reason: "MCP's resources/read result spells it mimeType" } },
      },
    },
  },
  {
    method: 'tools.list',
    part: 'params',
    proto: 's2sp.v1.ListToolsRequest',
    rules: { 's2sp.v1.ListToolsRequest': { jsonOnly: EDGE_PARAMS } },
  },
  {
    method: 'tools.list',
    part: 'result',
    proto: 's2sp.v1.ListToolsResponse',
    rules: {
      's2sp.v1.ListToolsResponse': {
        renamed: { nextCursor: { proto: 'next_cursor', reason: "MCP's tools/list result spells it nextCursor" } },
        jsonOnly: {
          resources: SURFACES_FROM_V2,
          resource_templates: SURFACES_FROM_V2,
          prompts: SURFACES_FROM_V2,
        },
      },
      's2sp.v1.ToolDescriptor': {
        renamed: {
          inputSchema: { proto: 'input_schema', reason: MCP_CAMEL_CASE },
          outputSchema: { proto: 'output_schema', reason: MCP_CAMEL_CASE },
          mutationClass: { proto: 'mutation_class', reason: MCP_CAMEL_CASE },
          requiredScopes: { proto: 'required_scopes', reason: MCP_CAMEL_CASE },
        },
        requiredness: {
          inputSchema:
            'MCP requires a tool to have an input schema; the gateway answers {"type":"object"} when the agents send none',
        },
      },
    },
  },
  {
    method: 'tools.call',
    part: 'params',
    proto: 's2sp.v1.ToolInvocationRequest',
    rules: { 's2sp.v1.ToolInvocationRequest': toolCallParamsRules({ deadline: GATEWAY_FILLED.deadline }) },
  },
  {
    method: 'v2.tools.call',
    part: 'params',
    proto: 's2sp.v2.InvokeToolRequest',
    rules: { 's2sp.v2.InvokeToolRequest': toolCallParamsRules() },
  },
  {
    method: 'v2.tools.call',
    part: 'result',
    proto: 's2sp.v2.InvokeToolResponse',
    rules: {
      's2sp.v2.InvokeToolResponse': {
        renamed: {
          trace_id: { proto: 'trace.trace_id', reason: 'results carry only the trace id of the TraceContext' },
        },
        requiredness: {
          usage: USAGE_ZERO_WHEN_UNSET,
          result: 'the gateway answers an empty content list when the agents leave the result unset',
        },
      },
      's2sp.v2.ToolResult': {
        renamed: {
          structuredContent: {
            proto: 'structured_content',
            reason: "MCP's CallToolResult spells it structuredContent",
          },
          isError: { proto: 'is_error', reason: "MCP's CallToolResult spells it isError" },
          _meta: { proto: 'meta', reason: "MCP's CallToolResult spells it _meta" },
        },
      },
      's2sp.v2.ContentBlock': {
        protoOnly: Object.fromEntries(
          ['text', 'image', 'audio', 'resource_link', 'resource', 'other', 'annotations', 'meta'].map((field) => [
            field,
            MCP_CONTENT_BLOCK,
          ]),
        ),
      },
      's2sp.v1.ProvenanceRecord': {
        protoOnly: {
          resource_url: "a single-use capability; a v2.tools.call caller finds it in the tool's own result",
        },
      },
      's2sp.v1.DataPlaneRef': {
        protoOnly: {
          resource_url: "a single-use capability; a v2.tools.call caller finds it in the tool's own result",
        },
      },
    },
  },
];

/** Published shapes deliberately not paired with a message field by field. */
export const OPAQUE_PARTS: readonly OpaquePart[] = [
  {
    method: 'tools.call',
    part: 'result',
    reason:
      "MCP's CallToolResult, carried as is in ToolInvocationResponse.output (a Struct); MCP defines it, not the protos",
  },
  {
    method: 'agent.streamTask',
    part: 'result',
    reason:
      'the result of one Server-Sent Event, either of two shapes checked elsewhere: a task snapshot (event "snapshot", agent.getTask\'s result) or one of its steps (event "step", an AgentStepResult as in that snapshot)',
  },
];

/** A method's params as one object schema: the content descriptors as members, their required flags as required. */
export function paramsSchema(method: OpenRpcMethod): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(method.params.map((param) => [param.name, param.schema as Schema])),
    required: method.params.filter((param) => param.required).map((param) => param.name),
  };
}

/** The pairs of the gateway's OpenRPC document, ready for checkCorrespondence. */
export function methodCorrespondences(
  document: OpenRpcDocument,
  table: readonly MethodCorrespondence[] = METHOD_CORRESPONDENCES,
): Correspondence[] {
  return table.map((entry) => {
    const method = document.methods.find((candidate) => candidate.name === entry.method);
    if (!method)
      throw new Error(`the correspondence table names ${entry.method}, which the OpenRPC document does not publish`);
    return {
      name: `${entry.method} ${entry.part}`,
      direction: entry.part === 'params' ? 'input' : 'output',
      proto: entry.proto,
      schema: entry.part === 'params' ? paramsSchema(method) : method.result.schema,
      components: document.components.schemas,
      ...(entry.rules ? { rules: entry.rules } : {}),
    };
  });
}

/** A zod schema as the MCP SDK publishes it to clients (the conversion @rekog/mcp-nest runs for tools/list). */
export function mcpJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Schema;
}

const PLAN_STEP_FIELDS = {
  tool: 'the plan step names the tool to call; it is not one of its parameters',
  server: "the plan step names the MCP server; it is not one of the tool's parameters",
  arguments: "the tool's own parameters, which the agents send beside the S2SP ones",
};

/**
 * The parameters S2SP adds to MCP tools, and a resource tool's output, paired
 * with the proto messages the agents build them from or read them into.
 */
export function mcpCorrespondences(): Correspondence[] {
  return [
    {
      name: 'MCP resource tool input (S2SP parameters)',
      direction: 'input',
      proto: 's2sp.v1.ResourceCallStep',
      schema: mcpJsonSchema(z.object(s2spResourceParameters), 'input'),
      rules: {
        's2sp.v1.ResourceCallStep': {
          protoOnly: PLAN_STEP_FIELDS,
          jsonOnly: {
            abstract_format:
              'the compact layout is for a model calling the tool itself; the agents read the rows and always ask for the default layout',
          },
          type: {
            abstract_domains:
              'the tool takes the comma-separated text (or a JSON array as text) the Python reference SDK takes; the agents join the list with ","',
          },
          requiredness: {
            abstract_domains:
              "a plain MCP call omits it and gets every column with no data plane; a plan's resource call must name its columns",
          },
        },
      },
    },
    {
      name: 'MCP consumer tool input (S2SP parameters)',
      direction: 'input',
      proto: 's2sp.v1.ConsumerCallStep',
      schema: mcpJsonSchema(z.object(s2spConsumerParameters), 'input'),
      rules: {
        's2sp.v1.ConsumerCallStep': {
          protoOnly: {
            ...PLAN_STEP_FIELDS,
            input_step_id: 'the agents read the rows of that step and send them as abstract_data',
          },
          jsonOnly: {
            abstract_data: 'filled by the agents with the rows selected from input_step_id',
            resource_url: "filled by the agents from the resource call's data-plane reference (async mode)",
            body_data: 'filled by the agents with the body rows of a sync resource call',
          },
          type: {
            column_mapping:
              'tool parameters of the reference SDK are text: the agents send the map as a JSON object in a string',
          },
        },
      },
    },
    {
      // The agents read the tool's answer into the DataPlaneRef of the step: input to the proto side.
      name: 'MCP resource tool output',
      direction: 'input',
      proto: 's2sp.v1.DataPlaneRef',
      schema: mcpJsonSchema(resourceToolOutputSchema, 'output'),
      rules: {
        's2sp.v1.DataPlaneRef': {
          protoOnly: {
            mode: 'the agents know the mode they asked for; the answer shows it only by carrying resource_url or body',
            expires_at: "not in the tool's answer: the resource server enforces the expiry of its resource_url",
          },
          jsonOnly: {
            result: "a plain call's rows: no data plane, so no DataPlaneRef",
            columns: 'every column of the rows; the reference keeps abstract_domains and body_domains',
            abstract: "the abstract rows go to the planner's context, not into the reference",
            body: "a sync call's body rows stay in the agents' workspace, not in the reference",
          },
        },
      },
    },
  ];
}

/** Every declared pair: the gateway's published methods, then the MCP tool schemas. */
export function publishedCorrespondences(): Correspondence[] {
  return [...methodCorrespondences(gatewayOpenRpcDocument()), ...mcpCorrespondences()];
}
