import { Inject, UseFilters, UseGuards } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { McpController, Resource } from '@rekog/mcp-nest';
import { RequireScopes } from '@s2sp/auth';
import type { SqlDatabase } from '@s2sp/platform/internal';
import { S2SP_DATABASE } from '../config/s2sp.constants';
import { S2spToolAuthGuard } from '../auth/s2sp-tool-auth.guard';
import { McpProtocolErrorFilter } from '../mcp-surfaces/mcp-protocol-error.filter';
import { summarizeResourceActivity } from './resource-activity-summary';

export const RESOURCE_ACTIVITY_URI = 's2sp://data-plane/activity';
/**
 * Reading the activity summary needs this scope of its own: it names callers, which tool scopes do not grant.
 * @internal
 */
export const S2SP_ACTIVITY_READ_SCOPE = 's2sp:activity:read';

/**
 * A resource server's data-plane activity as a read-only MCP resource (see
 * `summarizeResourceActivity`). An app offers it by listing this controller in
 * its module; it needs S2spModule's own database (not a custom store).
 * @public
 */
@McpController()
@UseFilters(McpProtocolErrorFilter)
export class ResourceActivityController {
  constructor(@Inject(S2SP_DATABASE) private readonly database: SqlDatabase) {}

  @Resource({
    uri: RESOURCE_ACTIVITY_URI,
    name: 'data-plane-activity',
    description:
      'Per tool and caller: resources issued, consumed, expired and live; fetches that served a body, their bytes and the last one. JSON: {"generatedAt", "rows": [...]}.',
    mimeType: 'application/json',
  })
  @RequireScopes(S2SP_ACTIVITY_READ_SCOPE)
  @UseGuards(S2spToolAuthGuard)
  async readActivity(@Payload() params: { uri: string }): Promise<ReadResourceResult> {
    const now = new Date();
    const rows = await summarizeResourceActivity(this.database.sql, now);
    return {
      contents: [
        {
          uri: params.uri,
          mimeType: 'application/json',
          text: JSON.stringify({ generatedAt: now.toISOString(), rows }),
        },
      ],
    };
  }
}
