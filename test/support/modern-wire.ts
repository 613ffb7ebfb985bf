// Requests on the MCP 2026-07-28 wire as any client sends them, without an SDK: the standard
// headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) and the per-request `_meta` envelope.

const VERSION = '2026-07-28';

export interface ModernAnswer {
  status: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

/** One request on the 2026-07-28 wire: its standard headers and `_meta` envelope, JSON or SSE answer. */
export async function callModern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { capabilities?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<ModernAnswer> {
  const name = params['name'] ?? params['uri'] ?? params['taskId'];
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...options.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientInfo': { name: 'interaction-test', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? { elicitation: {} },
        },
      },
    }),
  });
  const body = await response.text();
  const json = body.trimStart().startsWith('{')
    ? JSON.parse(body)
    : body
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
        .find((message) => message['id'] === 1);
  return { status: response.status, ...(json as object) };
}
