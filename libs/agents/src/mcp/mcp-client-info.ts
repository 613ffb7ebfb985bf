/** Name and version the agents announce to MCP servers in `initialize`. */
export const AGENTS_CLIENT_INFO = { name: 's2sp-agents', version: '0.1.0' } as const;
