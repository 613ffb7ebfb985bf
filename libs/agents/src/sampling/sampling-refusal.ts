import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** The code MCP's specification shows for a client that declines a sampling request. */
export const SAMPLING_REFUSED_CODE = -1;

/** A sampling request the agents decline; the MCP server receives the message as the error of its request. */
export function samplingRefusal(message: string): McpError {
  return new McpError(SAMPLING_REFUSED_CODE, message);
}
