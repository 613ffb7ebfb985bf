import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpContext } from '@rekog/mcp-nest';
import { McpToolAuthGuard } from '@s2sp/auth';

/**
 * Enforces the `scopes` of @S2spResourceTool / @S2spConsumerTool through
 * @s2sp/auth's McpToolAuthGuard (scope check, approvals, audit) when the app
 * imports AuthModule. Without AuthModule the server runs without caller
 * authentication, as the rest of it does (no /mcp middleware either).
 * Over stdio there is no HTTP request to carry a token: the process that
 * spawned the server is the caller, and the call is let through.
 */
@Injectable()
export class S2spToolAuthGuard implements CanActivate {
  private delegate: McpToolAuthGuard | null | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const mcp: unknown = context.switchToRpc().getContext();
    if (!(mcp instanceof McpContext) || mcp.getRawRequest() === undefined) return true;
    const guard = this.authGuard();
    return guard === null ? true : guard.canActivate(context);
  }

  private authGuard(): McpToolAuthGuard | null {
    if (this.delegate === undefined) {
      try {
        this.delegate = this.moduleRef.get(McpToolAuthGuard, { strict: false });
      } catch {
        this.delegate = null;
      }
    }
    return this.delegate ?? null;
  }
}
