import { Injectable } from '@nestjs/common';
import { AuthorizationGate, bearerHeader, consumerDataScopes, mutationClassFromProto, TokenMinter, type CallerIdentity } from '@s2sp/auth';
import { McpConnectorService } from './mcp-connector.service';
import type { RegisteredTool } from './registered-tool';

/**
 * Decides whether a caller may call an MCP tool (its scopes; approval for
 * NON_IDEMPOTENT_WRITE and DESTRUCTIVE tools, UNSPECIFIED counting as
 * DESTRUCTIVE) and mints the token the call carries: the caller's, narrowed
 * to what the tool needs, for the tool's server, expiring with the deadline.
 * A consumer tool also gets the caller's data-plane scopes (s2sp:data:read
 * and the scopes it holds of the resource tool whose data it is handed, or of
 * every resource tool when that is not known), which it narrows again for its fetch.
 */
@Injectable()
export class McpCallAuthorizer {
  constructor(
    private readonly gate: AuthorizationGate,
    private readonly minter: TokenMinter,
    private readonly connector: McpConnectorService,
  ) {}

  async authorizationFor(
    caller: CallerIdentity,
    tool: RegisteredTool,
    deadlineMs: number | undefined,
    { traceId, dataSourceScopes }: { traceId?: string; dataSourceScopes?: readonly string[] } = {},
  ): Promise<string> {
    await this.gate.authorize(
      caller,
      { requiredScopes: tool.scopes, mutationClass: mutationClassFromProto(`MUTATION_CLASS_${tool.mutationClass}`) },
      { protocol: 'grpc', service: 'agents', operation: `tools/call ${tool.serverId}/${tool.name}`, ...(traceId ? { traceId } : {}) },
    );
    const needed = new Set(tool.scopes);
    if (tool.kind === 'S2SP_CONSUMER') {
      for (const scope of consumerDataScopes(caller, dataSourceScopes ?? this.connector.registry.resourceScopes())) needed.add(scope);
    }
    const remainingMs = deadlineMs === undefined ? undefined : deadlineMs - Date.now();
    const token = await this.minter.narrowToken(caller, [...needed], this.connector.audienceOf(tool.serverId), remainingMs);
    return bearerHeader(token);
  }
}
