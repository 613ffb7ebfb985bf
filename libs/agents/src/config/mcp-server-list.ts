import { parsePairs } from '@s2sp/platform';

/**
 * One MCP server the agents connect to.
 * @public
 */
export interface McpServerEndpoint {
  /** Logical id, e.g. "weather"; what ToolDescriptor.server and InvokeTool's `server` name. */
  id: string;
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:3101/mcp. May carry credentials; never shown as is. */
  url: string;
  /** The audience (service name) its tokens are minted for; default `<id>-server`, e.g. "weather-server". */
  audience?: string;
}

/** The audience the agents mint a server's tokens for. */
export function mcpAudienceOf(endpoint: McpServerEndpoint): string {
  return endpoint.audience ?? `${endpoint.id}-server`;
}

/**
 * Applies `id=audience,…` (AGENTS_MCP_AUDIENCES) to the server list; throws
 * naming an entry that is malformed or names no configured server.
 */
export function withMcpAudiences(
  servers: McpServerEndpoint[],
  text: string,
  source = 'AGENTS_MCP_AUDIENCES',
): McpServerEndpoint[] {
  const audiences = new Map(parsePairs(text, source, 'id=audience', 'weather=weather-server'));
  for (const id of audiences.keys()) {
    if (!servers.some((server) => server.id === id))
      throw new Error(`${source} names "${id}", which is not in AGENTS_MCP_SERVERS`);
  }
  return servers.map((server) =>
    audiences.has(server.id) ? { ...server, audience: audiences.get(server.id) } : server,
  );
}

export const MCP_SERVER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * Parses `id=url,id=url` (AGENTS_MCP_SERVERS). The first `=` splits id from
 * url, so a url may have `=` in its query. Throws naming the bad entry.
 */
export function parseMcpServerList(text: string, source = 'AGENTS_MCP_SERVERS'): McpServerEndpoint[] {
  return parsePairs(text, source, 'id=url', 'weather=http://127.0.0.1:3101/mcp').map(([id, url]) => ({ id, url }));
}

/** Checks ids (pattern, unique) and urls (absolute http/https). Throws naming the field. */
export function validateMcpServers(servers: readonly McpServerEndpoint[], field = 'mcpServers'): void {
  const seen = new Set<string>();
  servers.forEach((server, index) => {
    if (!MCP_SERVER_ID_PATTERN.test(server.id)) {
      throw new Error(`${field}[${index}].id must match ${MCP_SERVER_ID_PATTERN} (got ${JSON.stringify(server.id)})`);
    }
    if (seen.has(server.id)) throw new Error(`${field}[${index}].id "${server.id}" is configured twice`);
    seen.add(server.id);
    let url: URL;
    try {
      url = new URL(server.url);
    } catch {
      throw new Error(`${field}[${index}].url of "${server.id}" is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`${field}[${index}].url of "${server.id}" must be http or https (got ${url.protocol})`);
    }
  });
}
