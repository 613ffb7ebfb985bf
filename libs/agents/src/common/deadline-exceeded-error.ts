/** Hops named in DEADLINE_EXCEEDED errors (trailing metadata x-s2sp-deadline-hop). */
export const DEADLINE_HOP = {
  /** Too little time left when the request reached the agents. */
  AGENTS: 'agents',
  /** The MCP server did not answer in time. */
  MCP: 'mcp',
  /** The consumer's server-to-server fetch ran out of time. */
  DATA_PLANE: 'data-plane',
} as const;

export class DeadlineExceededError extends Error {
  constructor(
    readonly hop: string,
    message: string,
  ) {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}
