/**
 * How the agents negotiate the protocol with an MCP server: `'auto'` asks with
 * `server/discover` and speaks MCP 2026-07-28 when the server does (else
 * 2025-11-25 over `initialize`); `'legacy'` always initializes.
 * @public
 */
export type McpProtocolMode = 'auto' | 'legacy';

export const MCP_PROTOCOL_MODES: readonly McpProtocolMode[] = ['auto', 'legacy'];

export const DEFAULT_MCP_PROTOCOL: McpProtocolMode = 'auto';
