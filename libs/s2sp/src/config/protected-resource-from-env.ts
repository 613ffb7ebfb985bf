import { envOptional } from '@s2sp/platform';
import { envOptionalList } from '@s2sp/platform/internal';
import type { McpServerAuthOptions } from '../auth/mcp-protected-resource';

/** Environment variables of an MCP server's OAuth protected-resource description. */
export const MCP_PROTECTED_RESOURCE_ENV = {
  RESOURCE_URL: 'S2SP_MCP_RESOURCE_URL',
  AUTHORIZATION_SERVERS: 'S2SP_MCP_AUTHORIZATION_SERVERS',
  SCOPES_SUPPORTED: 'S2SP_MCP_SCOPES_SUPPORTED',
} as const;

/**
 * serveMcp `auth` options from S2SP_MCP_RESOURCE_URL (the public URL of `/mcp`),
 * S2SP_MCP_AUTHORIZATION_SERVERS and S2SP_MCP_SCOPES_SUPPORTED (comma-separated);
 * an unset variable leaves its option out (the defaults apply). serveMcp validates the values.
 * @public
 */
export function protectedResourceFromEnv(): Pick<
  McpServerAuthOptions,
  'resource' | 'authorizationServers' | 'scopesSupported'
> {
  const resource = envOptional(MCP_PROTECTED_RESOURCE_ENV.RESOURCE_URL);
  const authorizationServers = envOptionalList(MCP_PROTECTED_RESOURCE_ENV.AUTHORIZATION_SERVERS);
  const scopesSupported = envOptionalList(MCP_PROTECTED_RESOURCE_ENV.SCOPES_SUPPORTED);
  return {
    ...(resource ? { resource } : {}),
    ...(authorizationServers ? { authorizationServers } : {}),
    ...(scopesSupported ? { scopesSupported } : {}),
  };
}
