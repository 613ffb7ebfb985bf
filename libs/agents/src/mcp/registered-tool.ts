import type { MutationClassName, ToolKindName } from './tool-classification';

/** A tool as the agents know it: one MCP tool of one server, classified. */
export interface RegisteredTool {
  serverId: string;
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  kind: ToolKindName;
  mutationClass: MutationClassName;
  /** Scopes a caller must hold, from the tool's `_meta["s2sp/scopes"]` (empty when it declares none). */
  scopes: string[];
  /** The MCP server's version (serverInfo.version); MCP tools have no version of their own. */
  version: string;
}
