import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { McpRequest } from './mcp-request';

/** The first protocol revision of the stateless era; versions are dates, so they compare as strings. */
const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * Whether a POST to the MCP endpoint belongs to the stateless 2026 era (or is refused by its
 * rules), as the SDK's `classifyInboundRequest` decides. Most requests are plainly of the 2025
 * era; those are told apart without the SDK, whose classification first tries the body against
 * the response schemas and fails, which costs more than the rest of the routing.
 */
export function isModernEra(request: McpRequest): boolean {
  const protocolVersion = header(request, 'mcp-protocol-version');
  if (isPlainLegacyMessage(protocolVersion?.trim(), request.body)) return false;
  const outcome = classifyInboundRequest({
    httpMethod: request.method ?? 'POST',
    protocolVersionHeader: protocolVersion,
    mcpMethodHeader: header(request, 'mcp-method'),
    mcpNameHeader: header(request, 'mcp-name'),
    body: request.body,
  });
  return outcome.kind !== 'legacy';
}

/**
 * A single JSON-RPC request or notification under a 2025-era protocol version header, with no
 * envelope claim in its `_meta`: the SDK routes every such message to the 2025 era (one whose
 * params it finds malformed is refused there, 400, as it would be by the 2026 era's handler).
 * Anything else (no header, a batch, a response, a claim, an odd id) is left to the SDK.
 */
function isPlainLegacyMessage(protocolVersion: string | undefined, body: unknown): boolean {
  if (protocolVersion === undefined || protocolVersion === '' || protocolVersion >= FIRST_MODERN_PROTOCOL_VERSION)
    return false;
  if (!isPlainObject(body) || 'result' in body || 'error' in body) return false;
  if (body['jsonrpc'] !== '2.0' || typeof body['method'] !== 'string') return false;
  const id = body['id'];
  if (id !== undefined && typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  const params = body['params'];
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  const meta = params['_meta'];
  return meta === undefined || (isPlainObject(meta) && !(PROTOCOL_VERSION_META_KEY in meta));
}

function header(request: McpRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
