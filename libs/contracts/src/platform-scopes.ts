/**
 * Scopes of the platform's own operations, the same at the gateway (JSON-RPC
 * methods) and the agents (gRPC methods). Tools declare their own scopes
 * (e.g. weather:read) in their MCP `_meta["s2sp/scopes"]`.
 * @public
 */
export const PLATFORM_SCOPES = {
  TOOLS_LIST: 'tools:list',
  TOOLS_CALL: 'tools:call',
  /** Reading an MCP server's resource through the platform; the server checks the resource's own scope too. */
  RESOURCES_READ: 'resources:read',
  TASKS_SUBMIT: 'tasks:submit',
  TASKS_READ: 'tasks:read',
  TASKS_CANCEL: 'tasks:cancel',
} as const;
