import type { McpConnectorService } from '../mcp/mcp-connector.service';
import { boundedString } from '../common/request-strings';

/** The `server` filter of a list request: '' for every server, else a configured server id (UnknownMcpServerError otherwise). */
export function serverFilter(connector: McpConnectorService, raw: string | undefined): string {
  const server = boundedString(raw, 'server');
  if (server !== '') connector.connection(server);
  return server;
}
