import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpContext } from '@rekog/mcp-nest';
import { AuthorizationGate } from '@s2sp/auth';
import { McpToolAuthGuard } from './mcp-tool-auth.guard';

/**
 * Enforces the `scopes` of @S2spResourceTool / @S2spConsumerTool through
 * McpToolAuthGuard (scope check, approvals, audit) when the app imports
 * @s2sp/auth's AuthModule. Without AuthModule the server runs without caller
 * authentication, as the rest of it does (no /mcp middleware either).
 * Over stdio there is no HTTP request to carry a token: the process that
 * spawned the server is the caller, and the call is let through.
 * @public
 */
@Injectable()
export class S2spToolAuthGuard implements CanActivate {
  private delegate: Promise<McpToolAuthGuard | null> | undefined;

  constructor(private readonly moduleRef: ModuleRef) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const mcp: unknown = context.switchToRpc().getContext();
    if (!(mcp instanceof McpContext) || mcp.getRawRequest() === undefined) return true;
    const guard = await this.authGuard();
    return guard === null ? true : guard.canActivate(context);
  }

  /** The MCP guard, built once from AuthModule's providers; null when the app has no AuthModule. */
  private authGuard(): Promise<McpToolAuthGuard | null> {
    this.delegate ??= this.hasAuthModule() ? this.moduleRef.create(McpToolAuthGuard) : Promise.resolve(null);
    return this.delegate;
  }

  private hasAuthModule(): boolean {
    try {
      this.moduleRef.get(AuthorizationGate, { strict: false });
      return true;
    } catch {
      return false;
    }
  }
}
