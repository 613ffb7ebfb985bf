import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { isMutationClass, MUTATION_CLASS_METADATA, type MutationClass } from './mutation-class';
import { ALLOW_ANONYMOUS_METADATA, REQUIRED_SCOPES_METADATA } from './require-scopes.decorator';

/** What an operation demands of its caller. */
export interface AuthorizationRequirements {
  readonly requiredScopes: readonly string[];
  readonly mutationClass: MutationClass;
}

export interface HandlerRequirements extends AuthorizationRequirements {
  readonly allowAnonymous: boolean;
}

/** Reads @RequireScopes (class + handler, merged), @MutationClass (handler over class) and @AllowAnonymous. */
export function readHandlerRequirements(reflector: Reflector, context: ExecutionContext, defaultMutationClass: MutationClass): HandlerRequirements {
  const targets = [context.getHandler(), context.getClass()];
  const scopes = reflector.getAllAndMerge<string[]>(REQUIRED_SCOPES_METADATA, targets) ?? [];
  const declared = reflector.getAllAndOverride<MutationClass | undefined>(MUTATION_CLASS_METADATA, targets);
  return {
    requiredScopes: [...new Set(scopes)],
    mutationClass: isMutationClass(declared) ? declared : defaultMutationClass,
    allowAnonymous: reflector.getAllAndOverride<boolean | undefined>(ALLOW_ANONYMOUS_METADATA, targets) === true,
  };
}
