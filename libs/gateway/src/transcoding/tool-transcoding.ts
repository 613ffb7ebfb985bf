import { v1, type JsonObject, type JsonValue, type v2 } from '@s2sp/contracts';
import { toJsonObject } from '@s2sp/contracts/internal';
import { JsonRpcError, type JsonRpcCallContext } from '@s2sp/json-rpc';
import type { CallToolParams } from '../methods/dto/call-tool.params';
import type { ListToolsParams } from '../methods/dto/list-tools.params';
import { authContextOf, traceContextOf } from './call-identity';
import { ENUM_PREFIX, protoEnumToJson } from './proto-enum';
import { compact, nonEmpty, protoStructToJson } from './proto-values';

/** A tool as tools.list lists it (the MCP Tool shape plus server, kind and mutationClass). */
export interface ToolJson {
  name: string;
  server: string;
  title?: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  /** "standard" | "s2sp_resource" | "s2sp_consumer" | "unspecified" */
  kind: string;
  /** "read_only" | "idempotent_write" | "non_idempotent_write" | "destructive" | "unspecified" */
  mutationClass: string;
  /** Scopes a caller must hold to call it. */
  requiredScopes: string[];
  /** The version the MCP server declares for the tool; absent when it declares none. */
  version?: string;
}

export interface ListToolsResult {
  tools: ToolJson[];
  nextCursor?: string;
  /** On the first page: what the MCP servers offer besides tools. */
  resources?: Array<{
    server: string;
    uri: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
  }>;
  resource_templates?: Array<{
    server: string;
    uriTemplate: string;
    name: string;
    title?: string;
    description?: string;
    mimeType?: string;
  }>;
  prompts?: Array<{
    server: string;
    name: string;
    title?: string;
    description?: string;
    arguments: Array<{ name: string; description?: string; required: boolean }>;
  }>;
}

/** MCP's CallToolResult. */
export interface CallToolResult {
  content: JsonValue[];
  structuredContent?: JsonObject;
  isError?: boolean;
  _meta?: JsonObject;
}

export function listToolsRequest(params: ListToolsParams): v1.ListToolsRequest {
  return { cursor: params.cursor ?? '', page_size: params.page_size ?? 0, server: params.server ?? '' };
}

/** tools.list's answer: a page of tools and, on the first page, the servers' other surfaces. */
export function listToolsResult(response: v1.ListToolsResponse, surfaces?: v2.ListSurfacesResponse): ListToolsResult {
  return compact({
    tools: (response.tools ?? []).map(toolDescriptorToJson),
    nextCursor: nonEmpty(response.next_cursor),
    ...(surfaces ? surfacesToJson(surfaces) : {}),
  });
}

function surfacesToJson(
  surfaces: v2.ListSurfacesResponse,
): Pick<ListToolsResult, 'resources' | 'resource_templates' | 'prompts'> {
  const described = (item: { title: string; description: string; mime_type?: string }) => ({
    title: nonEmpty(item.title),
    description: nonEmpty(item.description),
    mimeType: nonEmpty(item.mime_type),
  });
  return {
    resources: surfaces.resources.map((resource) =>
      compact({ server: resource.server, uri: resource.uri, name: resource.name, ...described(resource) }),
    ),
    resource_templates: surfaces.resource_templates.map((template) =>
      compact({
        server: template.server,
        uriTemplate: template.uri_template,
        name: template.name,
        ...described(template),
      }),
    ),
    prompts: surfaces.prompts.map((prompt) =>
      compact({
        server: prompt.server,
        name: prompt.name,
        title: nonEmpty(prompt.title),
        description: nonEmpty(prompt.description),
        arguments: prompt.arguments.map((argument) =>
          compact({ name: argument.name, description: nonEmpty(argument.description), required: argument.required }),
        ),
      }),
    ),
  };
}

export function toolDescriptorToJson(tool: v1.ToolDescriptor): ToolJson {
  const outputSchema = protoStructToJson(tool.output_schema);
  return compact({
    name: tool.name,
    server: tool.server,
    title: nonEmpty(tool.title),
    description: tool.description ?? '',
    inputSchema: protoStructToJson(tool.input_schema) ?? { type: 'object' },
    outputSchema: outputSchema && Object.keys(outputSchema).length > 0 ? outputSchema : undefined,
    kind: protoEnumToJson(tool.kind, ENUM_PREFIX.TOOL_KIND),
    mutationClass: protoEnumToJson(tool.mutation_class, ENUM_PREFIX.MUTATION_CLASS),
    requiredScopes: [...(tool.required_scopes ?? [])],
    version: nonEmpty(tool.version),
  });
}

/** The fields tools.call params fill in both InvokeTool requests (s2sp.v1 and s2sp.v2). */
export function toolCallFields(params: CallToolParams, ctx: JsonRpcCallContext, invocationId: string) {
  return {
    invocation_id: invocationId,
    tool_name: params.name,
    input_params: toJsonObject(params.arguments ?? {}),
    caller_auth: authContextOf(ctx),
    trace: traceContextOf(ctx),
    server: params.server ?? '',
  };
}

export function toolInvocationRequest(
  params: CallToolParams,
  ctx: JsonRpcCallContext,
  invocationId: string,
): v1.ToolInvocationRequest {
  return v1.ToolInvocationRequest.create(toolCallFields(params, ctx, invocationId));
}

/**
 * The tool's result exactly as MCP's tools/call returns it, taken from
 * ToolInvocationResponse.output. A tool error is a result with isError (as in
 * MCP); a tool timeout is -32000 (hop "mcp"), a pending approval 4003.
 */
export function toolCallResult(response: v1.ToolInvocationResponse, toolName: string): CallToolResult {
  const status = protoEnumToJson(response.status, ENUM_PREFIX.TOOL_RESULT_STATUS);
  const reason = nonEmpty(response.error_message);
  if (status === 'timeout') throw JsonRpcError.deadlineExceeded('mcp', compact({ tool: toolName, reason }));
  if (status === 'approval_pending') {
    throw JsonRpcError.approvalRequired(
      compact({ tool: toolName, invocation_id: nonEmpty(response.invocation_id), reason }),
    );
  }
  const output = protoStructToJson(response.output) ?? {};
  const failed = status === 'error' || output.isError === true;
  if (Array.isArray(output.content)) {
    return compact({
      content: output.content,
      structuredContent: isJsonObject(output.structuredContent) ? output.structuredContent : undefined,
      isError: failed ? true : output.isError === false ? false : undefined,
      _meta: isJsonObject(output._meta) ? output._meta : undefined,
    });
  }
  if (failed) return { content: [{ type: 'text', text: reason ?? `Tool ${toolName} failed` }], isError: true };
  return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
