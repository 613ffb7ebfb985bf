import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { isMutationClass, MUTATION_CLASS_METADATA, type MutationClass } from './mutation-class';
import { ALLOW_ANONYMOUS_METADATA, REQUIRED_SCOPES_METADATA } from './require-scopes.decorator';

/**
 * What an operation demands of its caller.
 * @public
 */
export interface AuthorizationRequirements {
  readonly requiredScopes: readonly string[];
  readonly mutationClass: MutationClass;
}

/** @public */
export interface HandlerRequirements extends AuthorizationRequirements {
  readonly allowAnonymous: boolean;
}

/**
 * {@link readHandlerRequirements} once per handler: decorator metadata does not
 * change after startup, and guards ask for it on every call.
 * @public
 */
export class HandlerRequirementsReader {
  private readonly cache = new WeakMap<Function, WeakMap<Function, HandlerRequirements>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly defaultMutationClass: MutationClass,
  ) {}

  read(context: ExecutionContext): HandlerRequirements {
    const handler = context.getHandler();
    const owner = context.getClass();
    let byClass = this.cache.get(handler);
    if (!byClass) this.cache.set(handler, (byClass = new WeakMap()));
    let requirements = byClass.get(owner);
    if (!requirements) {
      requirements = Object.freeze(readHandlerRequirements(this.reflector, context, this.defaultMutationClass));
      byClass.set(owner, requirements);
    }
    return requirements;
  }
}

/** Reads @RequireScopes (class + handler, merged), @MutationClass (handler over class) and @AllowAnonymous. */
export function readHandlerRequirements(
  reflector: Reflector,
  context: ExecutionContext,
  defaultMutationClass: MutationClass,
): HandlerRequirements {
  const targets = [context.getHandler(), context.getClass()];
  const scopes = reflector.getAllAndMerge<string[]>(REQUIRED_SCOPES_METADATA, targets) ?? [];
  const declared = reflector.getAllAndOverride<MutationClass | undefined>(MUTATION_CLASS_METADATA, targets);
  return {
    requiredScopes: [...new Set(scopes)],
    mutationClass: isMutationClass(declared) ? declared : defaultMutationClass,
    allowAnonymous: reflector.getAllAndOverride<boolean | undefined>(ALLOW_ANONYMOUS_METADATA, targets) === true,
  };
}
