import { Inject, Injectable } from '@nestjs/common';
import { bearerHeader, DelegationRefusedError, TokenMinter, type CallerIdentity } from '@s2sp/auth';
import { consumerDataScopes, requireCaller } from '@s2sp/auth/internal';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import type { CallOrigin } from '../grpc/agents-downstream';
import { JsonRpcError, type JsonRpcCallContext } from '@s2sp/json-rpc';
import { ToolScopeCatalog } from './tool-scope-catalog';
import { toolsNotDiscovered } from './tools-not-discovered';

/** What the gRPC call is made for: a JSON-RPC call, or what of one another request on the caller's behalf has. */
export type DownstreamCall = Pick<JsonRpcCallContext, 'deadline' | 'signal' | 'headers' | 'caller' | 'remainingMs'>;

/**
 * The token a JSON-RPC call's gRPC call to the agents carries: the caller's,
 * narrowed to the method's own scope plus what the tools it names need
 * (their declared scopes; for consumer tools, the caller's data-plane scopes
 * for the named resource tools, or for all of them when none is named), for
 * the agents' audience, expiring with the call's deadline.
 */
@Injectable()
export class DownstreamCredentials {
  constructor(
    private readonly minter: TokenMinter,
    private readonly catalog: ToolScopeCatalog,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** `ctx` plus the narrowed Authorization for a call needing `methodScope` and the named tools. */
  async originFor(
    ctx: JsonRpcCallContext,
    methodScope: string,
    toolNames: readonly string[] = [],
  ): Promise<CallOrigin> {
    const caller = requireCaller(ctx, 'JSON-RPC call');
    const needed = new Set([methodScope]);
    if (toolNames.length > 0) {
      const known = await this.catalog.lookup(toolNames, () => this.catalogOrigin(ctx, caller));
      const unknown = [...new Set(toolNames.filter((name) => !known.has(name)))];
      if (unknown.length > 0) throw toolsNotDiscovered(unknown, this.catalog.nextMissRefreshInMs());
      const tools = [...known.values()];
      // A consumer gets the data-plane scopes of the resource tools the call names (a task's plan),
      // or of every resource tool when it names none (a bare tools.call of a consumer).
      const resources = tools.filter((tool) => tool.kind === 'TOOL_KIND_S2SP_RESOURCE');
      const dataScopes = resources.length > 0 ? resources.flatMap((tool) => tool.scopes) : this.catalog.dataScopes();
      for (const tool of tools) {
        for (const scope of tool.scopes) needed.add(scope);
        if (tool.kind !== 'TOOL_KIND_S2SP_RESOURCE' && tool.kind !== 'TOOL_KIND_STANDARD') {
          for (const scope of consumerDataScopes(caller, dataScopes)) needed.add(scope);
        }
      }
    }
    return this.withToken(ctx, caller, [...needed]);
  }

  /**
   * `ctx` plus the Authorization for a task without a plan: `tasks:submit` and the caller's scopes
   * that are not the platform's own. The agents' planner chooses the tools as the task runs, and
   * the agents narrow the token again for each MCP server they call.
   */
  originForUnplannedTask(ctx: JsonRpcCallContext): Promise<CallOrigin> {
    return this.withServerScopes(ctx, PLATFORM_SCOPES.TASKS_SUBMIT);
  }

  /**
   * `ctx` plus the Authorization for resources.read: `resources:read` and the
   * caller's scopes that are not the platform's own methods'. The gateway does
   * not know which scope a resource needs (MCP resources declare none; the
   * server checks it), so the agents get whatever the caller holds for the
   * servers and narrow it again for the one server they read from
   * (McpCallAuthorizer.resourceReadAuthorization in apps/agents).
   */
  originForResourceRead(ctx: JsonRpcCallContext): Promise<CallOrigin> {
    return this.withServerScopes(ctx, PLATFORM_SCOPES.RESOURCES_READ);
  }

  /** `methodScope` and every scope of the caller that is not one of the platform's own methods'. */
  private withServerScopes(ctx: JsonRpcCallContext, methodScope: string): Promise<CallOrigin> {
    const caller = requireCaller(ctx, 'JSON-RPC call');
    const platformScopes = new Set<string>(Object.values(PLATFORM_SCOPES));
    return this.withToken(ctx, caller, [methodScope, ...caller.scopes.filter((scope) => !platformScopes.has(scope))]);
  }

  /**
   * What the {@link ToolScopeCatalog} reads the agents' tools with: the caller's
   * token narrowed to no scope at all (authenticated, authorized for nothing).
   * `call` is a JSON-RPC call, or the deadline and signal of another request
   * made on the caller's behalf (GET /schemas).
   */
  catalogOrigin(call: DownstreamCall, caller: CallerIdentity): Promise<CallOrigin> {
    return this.withToken(call, caller, []);
  }

  private async withToken(ctx: DownstreamCall, caller: CallerIdentity, scopes: string[]): Promise<CallOrigin> {
    let token: string;
    try {
      token = await this.minter.narrowToken(caller, scopes, this.config.agentsAudience, ctx.remainingMs());
    } catch (error) {
      // The call's budget ran out in the handler before the gRPC call: the same answer as the handler timer's.
      if (error instanceof DelegationRefusedError && error.refusal === 'deadline-passed') {
        throw JsonRpcError.deadlineExceeded('gateway.handler', { deadline_ms: ctx.deadline });
      }
      throw error;
    }
    return {
      deadline: ctx.deadline,
      signal: ctx.signal,
      headers: ctx.headers,
      caller: ctx.caller,
      authorization: bearerHeader(token),
    };
  }
}
