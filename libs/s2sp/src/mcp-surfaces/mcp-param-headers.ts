import type { McpServer } from '@modelcontextprotocol/server';

/** The `_meta` key under which a tool names the parameters its clients mirror into headers. */
const MCP_PARAM_HEADERS_META = 's2sp/mcp-param-headers';

/**
 * The `_meta` of a tool (`@Tool({ …, _meta: mcpParamHeaders({ region: 'Region' }) })`) whose
 * top-level string, number or boolean parameters clients of protocol 2026-07-28 copy into
 * `Mcp-Param-<Header>` HTTP headers, so that gateways and load balancers can route on them
 * without reading the body. The tool's listed input schema then carries `x-mcp-header` on those
 * parameters, and a call whose headers are missing or disagree with its arguments is refused
 * with HTTP 400 and `-32020` (HeaderMismatch) before the tool runs.
 * @public
 */
export function mcpParamHeaders(headers: Record<string, string>): Record<string, unknown> {
  return { [MCP_PARAM_HEADERS_META]: { ...headers } };
}

/** Whether a tool's `_meta` declares parameters mirrored into headers ({@link mcpParamHeaders}). */
export function declaresParamHeaders(meta: Record<string, unknown> | undefined): boolean {
  return meta?.[MCP_PARAM_HEADERS_META] !== undefined;
}

interface ListedTool {
  name: string;
  inputSchema?: { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
type ListTools = (request: unknown, ctx: unknown) => { tools: ListedTool[] } | Promise<{ tools: ListedTool[] }>;

/** A listed tool with its mirrored parameters annotated (`x-mcp-header`) and the private `_meta` key dropped. */
function annotated(tool: ListedTool): ListedTool {
  const headers = tool._meta?.[MCP_PARAM_HEADERS_META] as Record<string, string> | undefined;
  if (!headers) return tool;
  const { [MCP_PARAM_HEADERS_META]: _declared, ...meta } = tool._meta ?? {};
  const properties = { ...tool.inputSchema?.properties };
  for (const [parameter, header] of Object.entries(headers)) {
    if (properties[parameter]) properties[parameter] = { ...properties[parameter], 'x-mcp-header': header };
  }
  const { _meta: _dropped, ...rest } = tool;
  return {
    ...rest,
    inputSchema: { ...tool.inputSchema, properties },
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

/**
 * @rekog/mcp-nest refuses `x-mcp-header` in a tool's schema (it registers raw handlers, and the
 * SDK checks the headers only for tools it registered itself). Tools declare the mirrored
 * parameters in `_meta` instead ({@link mcpParamHeaders}): `tools/list` annotates them, and the
 * SDK's HTTP entry finds the annotated schema through `toolInputSchemaJson`, which it consults
 * before dispatching a 2026-07-28 `tools/call`. Only a tool that `mirrors` headers is looked up
 * in the list: listing converts every tool's schema, which cost more than the rest of the call.
 */
export function withParamHeaderMirroring(
  server: McpServer,
  setHandler: (method: string, handler: unknown) => void,
  mirrors: (toolName: string) => boolean,
) {
  let listTools: ListTools | undefined;
  const sdkSchema = server.toolInputSchemaJson.bind(server);
  server.toolInputSchemaJson = (name) => {
    const own = sdkSchema(name);
    if (own !== undefined || !listTools || !mirrors(name)) return own;
    const listed = listTools({ method: 'tools/list', params: {} }, undefined);
    if (listed instanceof Promise) return undefined;
    const tool = listed.tools.find((candidate) => candidate.name === name);
    return tool && tool._meta?.[MCP_PARAM_HEADERS_META] ? annotated(tool).inputSchema : undefined;
  };
  return (handler: unknown): void => {
    const list = handler as ListTools;
    listTools = list;
    setHandler('tools/list', (request: unknown, ctx: unknown) => {
      const listed = list(request, ctx);
      const annotate = (result: { tools: ListedTool[] }) => ({ ...result, tools: result.tools.map(annotated) });
      return listed instanceof Promise ? listed.then(annotate) : annotate(listed);
    });
  };
}
