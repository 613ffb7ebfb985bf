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

/**
 * How the servers are called: `sessions` (2025 era, HTTP sessions), `stateless` (2025 era, every
 * POST on its own) or `modern` (the 2026-07-28 era, stateless by design). For `modern` each
 * framework keeps its default (S2spModule's sessions on, which serve the 2026 era on their own,
 * plain mcp-nest's stateless) and the raw SDK uses its documented 2026 entry, createMcpHandler.
 */
export type OverheadMode = 'sessions' | 'stateless' | 'modern';
export const OVERHEAD_MODES: readonly OverheadMode[] = ['sessions', 'stateless', 'modern'];

/** Starts `kind` on a free loopback port, served for `mode`. */
export async function startServer(kind: ServerKind, mode: OverheadMode, dataDir: string): Promise<StartedServer> {
  if (kind === 'raw-sdk') {
    const raw = await import('./raw-sdk-server.js');
    return mode === 'modern' ? await raw.startRawSdkModern() : await raw.startRawSdk(mode === 'sessions');
  }
  if (kind === 'mcp-nest') return await (await import('./mcp-nest-server.js')).startMcpNest(mode === 'sessions');
  return await (await import('./s2sp-server.js')).startS2sp(mode !== 'stateless', dataDir);
}
