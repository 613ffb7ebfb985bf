import { ProtocolError } from '@modelcontextprotocol/client';

/** The code MCP's specification shows for a client that declines a sampling request. */
export const SAMPLING_REFUSED_CODE = -1;

/** A sampling request the agents decline; the MCP server receives the message as the error of its request. */
export function samplingRefusal(message: string): ProtocolError {
  return new ProtocolError(SAMPLING_REFUSED_CODE, message);
}
