import { envOptional, parsePairs } from '@s2sp/platform';

/**
 * A root the agents declare to MCP servers (`roots/list`): the `file://` locations a server may work within.
 * @public
 */
export interface McpRootEntry {
  /** An MCP server id, or `*` for every server. */
  server: string;
  /** A `file://` URI. */
  uri: string;
  name?: string;
}

export const ALL_SERVERS = '*';
const MAX_ROOTS = 64;

/** AGENTS_MCP_ROOTS: `server=file:///path,…` (`*=…` for every server); unset declares none. */
export function mcpRootsFromEnv(): McpRootEntry[] {
  const text = envOptional('AGENTS_MCP_ROOTS');
  if (text === undefined) return [];
  return parsePairs(text, 'AGENTS_MCP_ROOTS', 'server=file:///path', 'stats=file:///srv/charts').map(
    ([server, uri]) => ({ server, uri }),
  );
}

/** Throws naming the bad entry: a server that is not configured, a URI that is not `file://`, too many roots. */
export function validateMcpRoots(roots: readonly McpRootEntry[], serverIds: readonly string[], field = 'roots'): void {
  if (!Array.isArray(roots)) throw new Error(`${field} must be an array of { server, uri, name? }`);
  if (roots.length > MAX_ROOTS) throw new Error(`${field} may hold at most ${MAX_ROOTS} roots; got ${roots.length}`);
  roots.forEach((root, index) => {
    if (root.server !== ALL_SERVERS && !serverIds.includes(root.server)) {
      throw new Error(
        `${field}[${index}].server "${root.server}" is not a configured MCP server (or "${ALL_SERVERS}")`,
      );
    }
    let url: URL | undefined;
    try {
      url = new URL(root.uri);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== 'file:')
      throw new Error(`${field}[${index}].uri must be a file:// URI; got ${JSON.stringify(root.uri)}`);
    if (root.name !== undefined && (typeof root.name !== 'string' || root.name.length > 256)) {
      throw new Error(`${field}[${index}].name must be a string of at most 256 characters`);
    }
  });
}

/** The roots declared to one server, in configuration order. */
export function rootsOf(roots: readonly McpRootEntry[], serverId: string): Array<{ uri: string; name?: string }> {
  return roots
    .filter((root) => root.server === ALL_SERVERS || root.server === serverId)
    .map((root) => (root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name }));
}
