/**
 * Span attribute keys: the ones every server span has (protocol, method,
 * version, caller id), the error code, plus the S2SP facts. Values are never credentials: a caller is named by
 * its id, a resource by its origin, never by its URL (the URL is the capability).
 * @public
 */
export const TelemetryAttributes = {
  /** `json-rpc`, `grpc`, `mcp`, `http`, `s2sp-data`. */
  PROTOCOL: 's2sp.protocol',
  /** JSON-RPC method, `Service/Method`, tool name or route. */
  METHOD: 's2sp.method',
  /** Schema / API version of the method. */
  VERSION: 's2sp.version',
  /** The verified caller (client id, else subject). */
  CALLER_ID: 's2sp.caller_id',
  /** The unified error code of a failed call (JSON-RPC code, S2SP code, …). */
  ERROR_CODE: 's2sp.error_code',

  RPC_SYSTEM: 'rpc.system',
  RPC_SERVICE: 'rpc.service',
  RPC_METHOD: 'rpc.method',
  HTTP_METHOD: 'http.request.method',
  HTTP_ROUTE: 'http.route',
  HTTP_STATUS: 'http.response.status_code',
  SERVER_ADDRESS: 'server.address',

  MCP_TOOL: 'mcp.tool.name',
  MCP_SERVER: 'mcp.server.id',

  /** Rows the resource tool produced, or the data plane served / fetched. */
  ROWS: 's2sp.rows',
  /** Rows a consumer asked the data plane for. */
  ROWS_REQUESTED: 's2sp.rows_requested',
  ABSTRACT_COLUMNS: 's2sp.abstract_columns',
  BODY_COLUMNS: 's2sp.body_columns',
  /** Body bytes served by (or fetched from) the data plane. */
  BODY_BYTES: 's2sp.body_bytes',
  /** Tokens of the body columns kept out of the model's context. */
  TOKENS_SAVED: 's2sp.tokens_saved',
  /** True when a resource tool issued a resource_url. */
  RESOURCE_ISSUED: 's2sp.resource_issued',
  /** Outcome of a data-plane fetch: ok, gone, refused, timeout, unreachable, error. */
  FETCH_RESULT: 's2sp.fetch.result',
} as const;

/**
 * Span names shared by both sides of a hop.
 * @public
 */
export const SpanNames = {
  jsonRpc: (method: string) => `jsonrpc.${method}`,
  /** `grpc.AgentService/SubmitTask` (service without its package). */
  grpc: (service: string, method: string) => `grpc.${shortServiceName(service)}/${method}`,
  mcpToolCall: (tool: string) => `mcp.tools/call ${tool}`,
  /** Consumer side of the data plane. */
  DATA_PLANE_FETCH: 's2sp.data.fetch',
  /** Resource-server side of the data plane. */
  DATA_PLANE_SERVE: 's2sp.data.serve',
} as const;

/**
 * `s2sp.v1.AgentService` → `AgentService`.
 * @public
 */
export function shortServiceName(service: string): string {
  const dot = service.lastIndexOf('.');
  return dot === -1 ? service : service.slice(dot + 1);
}

/**
 * Protocol labels used on spans and in metrics.
 * @public
 */
export type TelemetryProtocol = 'json-rpc' | 'grpc' | 'mcp' | 'http' | 's2sp-data';
