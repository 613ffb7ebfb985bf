import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ProtocolAuthGuard, type CallerIdentity } from '@s2sp/auth';
import { attachCaller } from '@s2sp/auth/internal';
import type { JsonRpcCallContext, JsonRpcCaller } from './json-rpc-call-context';
import { JSON_RPC_CONTEXT_TYPE } from './json-rpc-method-registry';

/** `ctx.caller` after authentication: the gateway's JsonRpcCaller shape plus the full identity. */
export interface AuthenticatedJsonRpcCaller extends JsonRpcCaller {
  readonly authenticated: true;
  readonly identity: CallerIdentity;
}

/**
 * Bearer authentication + @RequireScopes / @MutationClass authorization for the
 * JSON-RPC methods of JsonRpcModule (context type 'json-rpc'; others are left to their
 * own guard). Reads `ctx.headers.authorization`, sets `ctx.caller`. Throws
 * AuthenticationError (jsonRpcCode 4001), PermissionDeniedError (4002, naming the
 * scopes) or ApprovalRequiredError (4003).
 * @public
 */
@Injectable()
export class JsonRpcAuthGuard extends ProtocolAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT_TYPE) return true;
    const requirements = this.requirements.read(context);
    if (requirements.allowAnonymous) return true;
    // The guard is what turns the engine's anonymous caller into the verified one.
    const ctx = context.getArgByIndex<JsonRpcCallContext & { caller: JsonRpcCaller }>(1);
    const grant = await this.gate.check(ctx.headers?.authorization, requirements, {
      protocol: 'json-rpc',
      service: this.options.audience,
      operation: typeof ctx.method === 'string' ? ctx.method : 'unknown',
      ...(ctx.traceId ? { traceId: ctx.traceId } : {}),
      ...(ctx.remoteAddress ? { remoteAddress: ctx.remoteAddress } : {}),
    });
    const caller: AuthenticatedJsonRpcCaller = Object.freeze({
      authenticated: true,
      subject: grant.identity.subject,
      scopes: grant.identity.scopes,
      identity: grant.identity,
    });
    ctx.caller = caller;
    attachCaller(ctx, grant.identity);
    return true;
  }
}
