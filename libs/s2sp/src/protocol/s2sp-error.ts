/**
 * Machine-readable codes a tool error may carry in `_meta` (see S2SP_META.ERROR_CODE).
 * `UNAVAILABLE`: the server, or the resource server it fetched from, cannot serve right now
 * (e.g. its database restarts); the same call may be made again shortly.
 * @public
 */
export type S2spErrorCode = 'DEADLINE_EXCEEDED' | 'RESOURCE_GONE' | 'FETCH_REFUSED' | 'UNREACHABLE' | 'UNAVAILABLE';

/**
 * A problem with a tool call that the caller can fix. Resource and consumer
 * tools report it as an MCP tool error (`isError: true`) with this message,
 * never as a protocol failure and never with a stack.
 * @public
 */
export class S2spToolError extends Error {
  constructor(
    message: string,
    readonly code?: S2spErrorCode,
    /** Where time ran out, for DEADLINE_EXCEEDED: "data-plane", "mcp", … */
    readonly hop?: string,
  ) {
    super(message);
    this.name = 'S2spToolError';
  }
}
