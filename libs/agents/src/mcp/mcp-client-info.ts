import { join } from 'node:path';
import { packageVersion } from '@s2sp/platform';
/** Name and version the agents announce to MCP servers in `initialize`. */
export const AGENTS_CLIENT_INFO = { name: 's2sp-agents', version: packageVersion(join(__dirname, '..')) } as const;
