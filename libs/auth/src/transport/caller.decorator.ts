import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { CallerIdentity } from '../identity/caller-identity';
import { callerFrom } from './caller-carrier';

/** The verified caller of the current call, from wherever the library's guard or middleware left it. */
export function callerOfContext(context: ExecutionContext): CallerIdentity | undefined {
  switch (context.getType<string>()) {
    case 'http':
      return callerFrom(context.switchToHttp().getRequest());
    case 'rpc': {
      const rpc: unknown = context.switchToRpc().getContext();
      return isMcpContext(rpc) ? callerFrom(rpc.getRawRequest()) : callerFrom(rpc);
    }
    default:
      return callerFrom(context.getArgByIndex(1));
  }
}

/**
 * `@Caller() caller: CallerIdentity` in a handler guarded by one of the library's guards.
 * @public
 */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext) => callerOfContext(context));

/** @rekog/mcp-nest's McpContext, recognised by shape so that this package does not depend on it. */
function isMcpContext(value: unknown): value is { getRawRequest(): unknown } {
  return typeof (value as { getRawRequest?: unknown } | null)?.getRawRequest === 'function';
}
