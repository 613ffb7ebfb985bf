import { Inject, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthorizationGate } from '../authorization/authorization-gate';
import { AUTH_OPTIONS, type ResolvedAuthOptions } from '../config/auth-options';
import { HandlerRequirementsReader } from '../authorization/authorization-requirements';

/**
 * What the guard of every protocol (HTTP, JSON-RPC, gRPC, MCP tools) is made of:
 * the authorization gate, the module's options, and the requirements each
 * handler declares (read once per handler). Each protocol's guard says how it
 * finds the caller and the target in its own execution context.
 * @public
 */
export abstract class ProtocolAuthGuard implements CanActivate {
  protected readonly requirements: HandlerRequirementsReader;

  constructor(
    protected readonly gate: AuthorizationGate,
    reflector: Reflector,
    @Inject(AUTH_OPTIONS) protected readonly options: ResolvedAuthOptions,
  ) {
    this.requirements = new HandlerRequirementsReader(reflector, options.defaultMutationClass);
  }

  abstract canActivate(context: ExecutionContext): Promise<boolean>;
}
