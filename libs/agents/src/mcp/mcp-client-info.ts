import { AGENTS_VERSION } from '../agents-version';
/** Name and version the agents announce to MCP servers in `initialize`. */
export const AGENTS_CLIENT_INFO = { name: 's2sp-agents', version: AGENTS_VERSION } as const;
