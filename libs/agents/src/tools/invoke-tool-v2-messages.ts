import { AGENT_EXECUTION_ERROR, RECOVERY_HINT, type JsonObject, type v1, type v2 } from '@s2sp/contracts';
import type { TraceRecord } from '../grpc/trace-context';
import { isObject, type McpToolResult } from './mcp-tool-result';
import type { ToolInvocationOutcome } from './tool-invoker.service';
import { invocationReport } from './tool-messages';

/** s2sp.v2.InvokeToolResponse: the MCP result as a typed ToolResult, a typed error for a tool error, and the invocation report. */
export function invokeToolResponseV2(
  invocationId: string,
  outcome: ToolInvocationOutcome,
  trace: TraceRecord | undefined,
): v2.InvokeToolResponse {
  const report = invocationReport(outcome, trace);
  return {
    invocation_id: invocationId,
    result: toolResultV2(outcome.result),
    error: outcome.result.isError ? toolFailure(report.error_message) : undefined,
    usage: report.usage,
    trace: report.trace,
    provenance: report.provenance,
    data_plane: report.data_plane,
  };
}

function toolFailure(message: string): v1.ErrorInfo {
  return {
    code: AGENT_EXECUTION_ERROR.TOOL_FAILURE,
    message,
    recovery_hint: RECOVERY_HINT.CHECK_TOOL_ARGUMENTS,
    details: undefined,
  };
}

export function toolResultV2(result: McpToolResult): v2.ToolResult {
  return {
    content: result.content.map(contentBlockV2),
    structured_content: result.structuredContent,
    is_error: result.isError,
    meta: result._meta,
  };
}

/**
 * One MCP content block as a typed ContentBlock. Binary data (base64 in MCP's
 * JSON) becomes bytes; a block of a type not listed here, or one whose
 * members do not have the types MCP gives them, travels as `other`, verbatim.
 */
export function contentBlockV2(block: JsonObject): v2.ContentBlock {
  const typed = typedBlock(block);
  return {
    ...(typed ?? { other: block }),
    annotations: typed && isObject(block.annotations) ? block.annotations : undefined,
    meta: typed && isObject(block._meta) ? block._meta : undefined,
  };
}

type TypedBlock = Omit<v2.ContentBlock, 'annotations' | 'meta' | 'other'>;

function typedBlock(block: JsonObject): TypedBlock | undefined {
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? { text: { text: block.text } } : undefined;
    case 'image':
    case 'audio': {
      const data = base64Bytes(block.data);
      if (!data || typeof block.mimeType !== 'string') return undefined;
      const binary: v2.BinaryContent = { data, mime_type: block.mimeType };
      return block.type === 'image' ? { image: binary } : { audio: binary };
    }
    case 'resource_link':
      if (typeof block.uri !== 'string' || typeof block.name !== 'string') return undefined;
      return {
        resource_link: {
          uri: block.uri,
          name: block.name,
          title: optionalString(block.title),
          description: optionalString(block.description),
          mime_type: optionalString(block.mimeType),
          size:
            typeof block.size === 'number' && Number.isSafeInteger(block.size) && block.size >= 0
              ? String(block.size)
              : '0',
        },
      };
    case 'resource':
      return embeddedResource(block.resource);
    default:
      return undefined;
  }
}

function embeddedResource(resource: unknown): TypedBlock | undefined {
  if (!isObject(resource) || typeof resource.uri !== 'string') return undefined;
  const base = { uri: resource.uri, mime_type: optionalString(resource.mimeType) };
  if (typeof resource.text === 'string') return { resource: { ...base, text: resource.text } };
  const blob = base64Bytes(resource.blob);
  return blob ? { resource: { ...base, blob } } : undefined;
}

function optionalString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Strict base64 to bytes; undefined for anything else (Buffer.from would skip bad characters silently). */
function base64Bytes(value: unknown): Uint8Array | undefined {
  return typeof value === 'string' && BASE64.test(value) ? Buffer.from(value, 'base64') : undefined;
}
