import { Injectable } from '@nestjs/common';
import { AuthorizationGate, bearerHeader, mutationClassFromProto, TokenMinter, type CallerIdentity } from '@s2sp/auth';
import { consumerDataScopes } from '@s2sp/auth/internal';
import { S2SP_ACTIVITY_READ_SCOPE } from '@s2sp/core/internal';
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
 * A resource read carries the caller's token narrowed the same way, to the
 * scopes that server may check (see {@link resourceReadAuthorization}).
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
      {
        protocol: 'grpc',
        service: 'agents',
        operation: `tools/call ${tool.serverId}/${tool.name}`,
        ...(traceId ? { traceId } : {}),
      },
    );
    const needed = new Set(tool.scopes);
    if (tool.kind === 'S2SP_CONSUMER') {
      for (const scope of consumerDataScopes(caller, dataSourceScopes ?? this.connector.registry.resourceScopes()))
        needed.add(scope);
    }
    return this.narrowedFor(caller, [...needed], tool.serverId, deadlineMs);
  }

  /**
   * The token a resources/read on `serverId` carries. MCP resources declare no
   * scopes, so the server alone decides: the token holds those of the caller's
   * scopes the server may check, the scopes its tools declare (its resources
   * are its data) and S2SP's activity scope, and nothing the server cannot use.
   * UnknownMcpServerError for a server not configured.
   */
  resourceReadAuthorization(caller: CallerIdentity, serverId: string, deadlineMs: number | undefined): Promise<string> {
    const serverScopes = new Set([
      S2SP_ACTIVITY_READ_SCOPE,
      ...this.connector.registry.forServer(serverId).flatMap((tool) => tool.scopes),
    ]);
    return this.narrowedFor(
      caller,
      caller.scopes.filter((scope) => serverScopes.has(scope)),
      serverId,
      deadlineMs,
    );
  }

  private async narrowedFor(
    caller: CallerIdentity,
    scopes: string[],
    serverId: string,
    deadlineMs: number | undefined,
  ): Promise<string> {
    const remainingMs = deadlineMs === undefined ? undefined : deadlineMs - Date.now();
    const token = await this.minter.narrowToken(caller, scopes, this.connector.audienceOf(serverId), remainingMs);
    return bearerHeader(token);
  }
}
