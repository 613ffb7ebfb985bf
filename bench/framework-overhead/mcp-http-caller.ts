import * as http from 'node:http';

const PROTOCOL_VERSION = '2025-11-25';
const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * The protocol era a caller speaks: `2025` opens a session the way the SDK's client does
 * (initialize, then notifications/initialized; a server without sessions answers without an id);
 * `2026` (2026-07-28) has no handshake: each request carries the version in a header and the
 * client's identity in its `_meta` envelope, as the agents' clients send it by default.
 */
export type McpEra = '2025' | '2026';

/**
 * A lean MCP client over Streamable HTTP (node:http, keep-alive) that sends `tools/call`,
 * reading the answer from JSON or from the SSE stream. Lean so that the client's own CPU
 * weighs as little as possible in a comparison of servers.
 */
export class McpHttpCaller {
  private sessionId?: string;
  private nextId = 1;
  private readonly target: { hostname: string; port: string; path: string };

  constructor(
    url: string,
    private readonly agent: http.Agent,
    private readonly era: McpEra = '2025',
  ) {
    const { hostname, port } = new URL(url);
    this.target = { hostname, port, path: '/mcp' };
  }

  async open(): Promise<void> {
    if (this.era === '2026') return;
    const initialized = await this.post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'overhead-bench', version: '1' },
      },
    });
    this.sessionId = initialized.sessionId;
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Calls `name`; rejects unless the answer is a successful tool result. */
  async callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    const id = this.nextId++;
    const { message } = await this.post({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: this.era === '2026' ? { name, arguments: args, _meta: MODERN_ENVELOPE } : { name, arguments: args },
    });
    const answer = message as
      { result?: { isError?: boolean; content?: unknown }; error?: { message: string } } | undefined;
    if (!answer?.result || answer.result.isError) throw new Error(`tools/call ${name}: ${JSON.stringify(answer)}`);
    return answer.result;
  }

  private post(body: Record<string, unknown>): Promise<{ sessionId?: string; message?: unknown }> {
    const text = JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(text),
      'mcp-protocol-version': this.era === '2026' ? MODERN_PROTOCOL_VERSION : PROTOCOL_VERSION,
    };
    if (this.era === '2026') {
      headers['mcp-method'] = body['method'] as string;
      const name = (body['params'] as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string') headers['mcp-name'] = name;
    }
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    return new Promise((resolve, reject) => {
      const request = http.request({ ...this.target, method: 'POST', agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          if ((response.statusCode ?? 0) >= 400) {
            reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`));
            return;
          }
          const sessionId = response.headers['mcp-session-id'];
          const payload = Buffer.concat(chunks).toString('utf8');
          resolve({
            sessionId: typeof sessionId === 'string' ? sessionId : undefined,
            message: messageOf(payload, String(response.headers['content-type'] ?? '')),
          });
        });
      });
      request.on('error', reject);
      request.end(text);
    });
  }
}

/** The 2026-07-28 `_meta` envelope of every request: protocol version, client identity and capabilities. */
const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientInfo': { name: 'overhead-bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The JSON-RPC answer of a body: JSON, or the last `data:` line of an SSE stream that holds one. */
function messageOf(payload: string, contentType: string): unknown {
  if (payload === '') return undefined;
  if (!contentType.startsWith('text/event-stream')) return JSON.parse(payload);
  const data = payload
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 'data:'.length + 1)
    .map((line) => JSON.parse(line.slice('data:'.length)) as { id?: unknown });
  return data.findLast((message) => message.id !== undefined);
}
