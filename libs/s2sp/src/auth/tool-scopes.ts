import { applyDecorators, UseGuards } from '@nestjs/common';
import { RequireScopes } from '@s2sp/auth';
import { S2SP_META } from '../protocol/s2sp-meta';
import { S2spToolAuthGuard } from './s2sp-tool-auth.guard';

/** Tool `_meta` announcing the scopes, so clients (the agents) can narrow their tokens to them. */
export function scopesMeta(scopes: readonly string[] | undefined): { _meta?: Record<string, unknown> } {
  return scopes && scopes.length > 0 ? { _meta: { [S2SP_META.SCOPES]: [...scopes] } } : {};
}

/** @RequireScopes plus the guard that enforces it on an S2SP tool; nothing when no scopes are declared. */
export function ToolScopesGuard(scopes: readonly string[] | undefined): MethodDecorator {
  if (!scopes || scopes.length === 0) return applyDecorators();
  return applyDecorators(RequireScopes(...scopes), UseGuards(S2spToolAuthGuard));
}
