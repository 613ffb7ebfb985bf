import { isObject, type McpToolResult } from './mcp-tool-result';

/**
 * A connected client of the official MCP SDK: `Client` of `@modelcontextprotocol/sdk` (v1) or of
 * `@modelcontextprotocol/client` (v2). Only `listTools` and `callTool` are used.
 * @public
 */
export interface McpClientLike {
  listTools(...args: never[]): Promise<unknown>;
  callTool(...args: never[]): Promise<unknown>;
}

/**
 * A tool as `tools/list` describes it.
 * @public
 */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** What a call sends besides the tool's arguments. */
export interface McpCallOptions {
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
}

type ListTools = (params?: { cursor?: string }, options?: { signal?: AbortSignal }) => Promise<unknown>;
type CallToolV1 = (params: unknown, resultSchema: undefined, options?: { signal?: AbortSignal }) => Promise<unknown>;
type CallToolV2 = (params: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;

/** Pages of `tools/list` read at most: a server that keeps answering a cursor is cut off there. */
const MAX_TOOL_PAGES = 100;

/** One server's MCP client, whichever SDK version made it, with its answers checked. */
export class McpServerClient {
  constructor(
    readonly serverId: string,
    private readonly client: McpClientLike,
  ) {}

  async listTools(signal?: AbortSignal): Promise<McpToolDefinition[]> {
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const answer = await (this.client.listTools as ListTools).call(
        this.client,
        cursor === undefined ? undefined : { cursor },
        { signal },
      );
      if (!isObject(answer) || !Array.isArray(answer.tools))
        throw new Error(`MCP server "${this.serverId}" answered tools/list without a tools array`);
      for (const tool of answer.tools) if (isToolDefinition(tool)) tools.push(tool);
      cursor = typeof answer.nextCursor === 'string' && answer.nextCursor !== '' ? answer.nextCursor : undefined;
      if (cursor === undefined) return tools;
    }
    throw new Error(`MCP server "${this.serverId}" answered more than ${MAX_TOOL_PAGES} pages of tools`);
  }

  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpToolResult> {
    const params = { name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) };
    const requestOptions = { signal: options.signal };
    // v2 takes the request options second; v1 takes a result schema there (undefined: its default).
    const answer = isV2Client(this.client)
      ? await (this.client.callTool as CallToolV2).call(this.client, params, requestOptions)
      : await (this.client.callTool as CallToolV1).call(this.client, params, undefined, requestOptions);
    if (!isObject(answer)) throw new Error(`MCP server "${this.serverId}" answered tools/call with no result`);
    return answer;
  }
}

/** v2's Client negotiates through `discover()`, which v1's has not. */
function isV2Client(client: McpClientLike): boolean {
  return typeof (client as { discover?: unknown }).discover === 'function';
}

function isToolDefinition(value: unknown): value is McpToolDefinition {
  return isObject(value) && typeof value.name === 'string' && value.name !== '' && isObject(value.inputSchema);
}
