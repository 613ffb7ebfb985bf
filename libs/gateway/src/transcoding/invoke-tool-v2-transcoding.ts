import { v2, type JsonObject, type JsonValue } from '@s2sp/contracts';
import type { JsonRpcCallContext } from '@s2sp/json-rpc';
import type { CallToolParams } from '../methods/dto/call-tool.params';
import { compact, nonEmpty, protoCount, protoStructToJson, protoTimeToIso } from './proto-values';
import {
  dataPlaneToJson,
  errorInfoToJson,
  usageToJson,
  type DataPlaneRefJson,
  type ErrorInfoJson,
  type ResourceUsageJson,
} from './task-response-transcoding';
import { toolCallFields, type CallToolResult } from './tool-transcoding';

/** Where a tool result came from; the resource_url (a single-use capability) is left out, as in task snapshots. */
export interface ProvenanceJson {
  server: string;
  tool: string;
  retrieved_at?: string;
  content_sha256?: string;
}

/** The result of v2.tools.call (member names as in s2sp.v2.InvokeToolResponse, like agent.* results). */
export interface InvokeToolV2Result {
  invocation_id: string;
  /** MCP's CallToolResult, rebuilt from the typed result. */
  result: CallToolResult;
  /** Set when the tool reported an error (result.isError). */
  error?: ErrorInfoJson;
  usage: ResourceUsageJson;
  provenance?: ProvenanceJson;
  data_plane?: DataPlaneRefJson;
  trace_id?: string;
}

export function invokeToolRequestV2(
  params: CallToolParams,
  ctx: JsonRpcCallContext,
  invocationId: string,
): v2.InvokeToolRequest {
  return v2.InvokeToolRequest.create(toolCallFields(params, ctx, invocationId));
}

export function invokeToolResultV2(response: v2.InvokeToolResponse, invocationId: string): InvokeToolV2Result {
  return compact({
    invocation_id: nonEmpty(response.invocation_id) ?? invocationId,
    result: callToolResultOf(response.result),
    error: errorInfoToJson(response.error),
    usage: usageToJson(response.usage),
    provenance: response.provenance
      ? compact({
          server: response.provenance.server,
          tool: response.provenance.tool,
          retrieved_at: protoTimeToIso(response.provenance.retrieved_at),
          content_sha256: nonEmpty(response.provenance.content_sha256),
        })
      : undefined,
    data_plane: dataPlaneToJson(response.data_plane),
    trace_id: nonEmpty(response.trace?.trace_id),
  });
}

/** A typed ToolResult back as MCP's CallToolResult JSON. */
export function callToolResultOf(result: v2.ToolResult | undefined): CallToolResult {
  return compact({
    content: (result?.content ?? []).map(contentBlockJson),
    structuredContent: protoStructToJson(result?.structured_content),
    isError: result?.is_error ? true : undefined,
    _meta: protoStructToJson(result?.meta),
  });
}

/** A typed content block back as MCP's JSON: bytes as base64, camelCase member names. */
function contentBlockJson(block: v2.ContentBlock): JsonValue {
  const decorations = compact({
    annotations: protoStructToJson(block.annotations),
    _meta: protoStructToJson(block.meta),
  });
  if (block.text) return { type: 'text', text: block.text.text, ...decorations };
  if (block.image) return { type: 'image', ...binaryJson(block.image), ...decorations };
  if (block.audio) return { type: 'audio', ...binaryJson(block.audio), ...decorations };
  if (block.resource_link) {
    const link = block.resource_link;
    const size = protoCount(link.size);
    return compact({
      type: 'resource_link',
      uri: link.uri,
      name: link.name,
      title: nonEmpty(link.title),
      description: nonEmpty(link.description),
      mimeType: nonEmpty(link.mime_type),
      size: size > 0 ? size : undefined,
      ...decorations,
    });
  }
  if (block.resource) {
    const resource = block.resource;
    const contents: JsonObject = compact({
      uri: resource.uri,
      mimeType: nonEmpty(resource.mime_type),
      text: resource.text,
      blob: resource.blob ? Buffer.from(resource.blob).toString('base64') : undefined,
    });
    return { type: 'resource', resource: contents, ...decorations };
  }
  return protoStructToJson(block.other) ?? {};
}

function binaryJson(content: v2.BinaryContent): JsonObject {
  return { data: Buffer.from(content.data).toString('base64'), mimeType: content.mime_type };
}
