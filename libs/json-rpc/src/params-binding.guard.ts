import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { JsonRpcCallContext } from './json-rpc-call-context';
import { JSON_RPC_CONTEXT_TYPE, JsonRpcMethodRegistry } from './json-rpc-method-registry';
import { bindParams } from './params-binder';

/**
 * Binds and validates a call's params against the method's DTO once the
 * guards that decide who may call have run, so a caller who may not call
 * learns nothing from validation errors. JsonRpcModule registers it as a
 * global guard; modules that import JsonRpcModule register theirs (e.g.
 * authentication, rate limits) first, so they run before it.
 *
 * A guard rather than a pipe or an interceptor: Nest's external context
 * hands the handler a copy of the argument list taken after the guards and
 * before the interceptors, and applies pipes only to decorated parameters.
 */
@Injectable()
export class ParamsBindingGuard implements CanActivate {
  constructor(private readonly registry: JsonRpcMethodRegistry) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT_TYPE) return true;
    const args = context.getArgs();
    const method = this.registry.get((args[1] as JsonRpcCallContext).method);
    if (method) args[0] = await bindParams(method.metadata, args[0]);
    return true;
  }
}
