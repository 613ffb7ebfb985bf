/**
 * The protocol hop a decision is made at.
 * @public
 */
export type AuthProtocol = 'http' | 'json-rpc' | 'grpc' | 'mcp' | 's2sp-data';

/**
 * What is being called, for audit and approval requests. Never holds a token or a resource URL.
 * @public
 */
export interface AuthorizationTarget {
  readonly protocol: AuthProtocol;
  /** The service deciding (its audience), e.g. "gateway", "agents", "weather-server". */
  readonly service: string;
  /** Method, tool or route pattern, e.g. "agent.submitTask", "/s2sp.v1.ToolService/InvokeTool", "POST /s2sp/data". */
  readonly operation: string;
  readonly traceId?: string;
  readonly remoteAddress?: string;
}
