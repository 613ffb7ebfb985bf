/**
 * A problem with a tool call that the caller can fix. Resource and consumer
 * tools report it as an MCP tool error (`isError: true`) with this message,
 * never as a protocol failure and never with a stack.
 */
export class S2spToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'S2spToolError';
  }
}
