import { Injectable, type ExecutionContext } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import type { CallerIdentity } from '../identity/caller-identity';
import { attachCaller } from '../transport/caller-carrier';
import { ProtocolAuthGuard } from './protocol-auth-guard';

/** Context type the gateway's JSON-RPC engine runs handlers under. */
export const JSON_RPC_CONTEXT_TYPE = 'json-rpc';

/** What the guard needs of the gateway's JsonRpcCallContext (2nd handler argument); no import of the gateway. */
export interface JsonRpcCallContextLike {
  readonly method: string;
  readonly headers: Readonly<IncomingHttpHeaders>;
  caller: unknown;
  readonly traceId?: string;
  readonly remoteAddress?: string;
}

/** `ctx.caller` after authentication: the gateway's JsonRpcCaller shape plus the full identity. */
export interface AuthenticatedJsonRpcCaller {
  readonly authenticated: true;
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly identity: CallerIdentity;
}

/**
 * Bearer authentication + @RequireScopes / @MutationClass authorization for the
 * gateway's JSON-RPC methods (context type 'json-rpc'; others are left to their
 * own guard). Reads `ctx.headers.authorization`, sets `ctx.caller`. Throws
 * AuthenticationError (jsonRpcCode 4001), PermissionDeniedError (4002, naming the
 * scopes) or ApprovalRequiredError (4003).
 */
@Injectable()
export class JsonRpcAuthGuard extends ProtocolAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT_TYPE) return true;
    const requirements = this.requirements.read(context);
    if (requirements.allowAnonymous) return true;
    const ctx = context.getArgByIndex<JsonRpcCallContextLike>(1);
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
