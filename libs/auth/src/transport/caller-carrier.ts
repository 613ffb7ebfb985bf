import type { CallerIdentity } from '../identity/caller-identity';

/** Where guards leave the verified caller on a per-call object (request, gRPC metadata, JSON-RPC context). */
const CALLER = Symbol.for('s2sp.auth.caller');

/**
 * Attaches `identity` to a per-call object, non-enumerable (never serialized or logged with it).
 * @internal
 */
export function attachCaller(carrier: object, identity: CallerIdentity): void {
  Object.defineProperty(carrier, CALLER, { value: identity, configurable: true, enumerable: false, writable: false });
}

/**
 * The caller a guard or middleware verified for this call: pass node's HTTP
 * request (Express's request, or Fastify's `request.raw`: `nodeRequestOf` from
 * @s2sp/platform gives it under either), the gRPC Metadata, the JSON-RPC call
 * context or the MCP raw request.
 * @public
 */
export function callerFrom(carrier: unknown): CallerIdentity | undefined {
  if (carrier === null || (typeof carrier !== 'object' && typeof carrier !== 'function')) return undefined;
  return (carrier as { [CALLER]?: CallerIdentity })[CALLER];
}

/**
 * What `req.user` holds after authentication: the shape @rekog/mcp-nest's tool
 * authorization reads (`scope` string first, then `scopes` array; `sub`), plus
 * the full identity.
 * @public
 */
export interface RequestUser {
  readonly sub: string;
  /** Space-separated, OAuth style. */
  readonly scope: string;
  readonly scopes: readonly string[];
  readonly client_id?: string;
  readonly identity: CallerIdentity;
}

/** @public */
export function requestUserOf(identity: CallerIdentity): RequestUser {
  return Object.freeze({
    sub: identity.subject,
    scope: identity.scopes.join(' '),
    scopes: identity.scopes,
    ...(identity.clientId ? { client_id: identity.clientId } : {}),
    identity,
  });
}

/**
 * The verified caller of a call whose guard always runs (`where` names the
 * call, e.g. "gRPC call"); none means the guard is not installed: a wiring
 * bug, thrown as such, never a call let through without identity.
 * @internal
 */
export function requireCaller(carrier: unknown, where: string): CallerIdentity {
  const caller = callerFrom(carrier);
  if (!caller) throw new Error(`no verified caller on this ${where}: is the auth guard installed?`);
  return caller;
}
