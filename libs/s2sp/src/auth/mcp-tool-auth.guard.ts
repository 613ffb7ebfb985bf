import { Injectable, type ExecutionContext } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { McpContext } from '@rekog/mcp-nest';
import { AuthError, AuthenticationError, callerFrom, ProtocolAuthGuard } from '@s2sp/auth';
import { traceIdFrom } from '@s2sp/auth/internal';

/**
 * @RequireScopes / @MutationClass authorization (with approval and audit) for
 * @rekog/mcp-nest tools. Authentication happened before, in
 * @s2sp/auth's `mcpHttpAuthMiddleware` on the `/mcp` route: this guard reads the caller
 * it left on the raw request. A tool call without one (e.g. no middleware, or
 * stdio) is refused. Errors reach the MCP client as a tool error with the public message.
 * @public
 */
@Injectable()
export class McpToolAuthGuard extends ProtocolAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'rpc') return true;
    const mcp: unknown = context.switchToRpc().getContext();
    if (!(mcp instanceof McpContext)) return true;
    const requirements = this.requirements.read(context);
    if (requirements.allowAnonymous) return true;
    const params = (mcp.mcpRequest as { params?: { name?: unknown; _meta?: Record<string, unknown> } } | undefined)
      ?.params;
    const target = {
      protocol: 'mcp' as const,
      service: this.options.audience,
      operation: typeof params?.name === 'string' ? params.name : context.getHandler().name,
      traceId: traceIdFrom(params?._meta?.traceparent),
    };
    try {
      const identity = callerFrom(mcp.getRawRequest());
      if (!identity) return await this.gate.refuse(new AuthenticationError('no-identity'), requirements, target);
      await this.gate.authorize(identity, requirements, target);
      return true;
    } catch (error) {
      throw toMcpToolError(error);
    }
  }
}

/**
 * An AuthError as an RpcException: Nest's RPC pipeline turns anything else
 * into "Internal server error", while mcp-nest shows an RpcException's message
 * to the client as a tool error (`isError: true`).
 */
export function toMcpToolError(error: unknown): unknown {
  if (!(error instanceof AuthError)) return error;
  return new RpcException({
    message: error.message,
    code: error.code,
    jsonRpcCode: error.jsonRpcCode,
    ...error.details,
  });
}
