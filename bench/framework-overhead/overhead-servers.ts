// The three servers the framework-overhead benchmark compares, each offering the same two tools:
// the raw MCP SDK on node:http, plain @rekog/mcp-nest on Express, and S2spModule through serveMcp
// (default store: the embedded PostgreSQL server), where `get_rows` is an S2SP resource tool.
// Each server's process loads only its own framework, so their memory compares too.

export type ServerKind = 'raw-sdk' | 'mcp-nest' | 's2sp';
export const SERVER_KINDS: readonly ServerKind[] = ['raw-sdk', 'mcp-nest', 's2sp'];

export interface StartedServer {
  url: string;
  close(): Promise<void>;
}

/** Starts `kind` on a free loopback port; `sessions` false serves every POST on its own (stateless). */
export async function startServer(kind: ServerKind, sessions: boolean, dataDir: string): Promise<StartedServer> {
  if (kind === 'raw-sdk') return await (await import('./raw-sdk-server.js')).startRawSdk(sessions);
  if (kind === 'mcp-nest') return await (await import('./mcp-nest-server.js')).startMcpNest(sessions);
  return await (await import('./s2sp-server.js')).startS2sp(sessions, dataDir);
}
