import { packageVersion } from '@s2sp/platform/internal';

/** The version of the @s2sp/agents package, which the agents report (telemetry, MCP clientInfo). */
export const AGENTS_VERSION: string = packageVersion(__dirname);
