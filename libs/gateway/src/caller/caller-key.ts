import type { JsonRpcCallContext } from '@s2sp/json-rpc';

/**
 * Who is calling, for rate limits and idempotency keys: the authenticated
 * subject, or the client's network address for anonymous callers (so two
 * anonymous clients neither share a rate-limit bucket nor see each other's
 * stored responses).
 */
export function callerKey(ctx: Pick<JsonRpcCallContext, 'caller' | 'remoteAddress'>): string {
  if (ctx.caller.authenticated) return `subject:${ctx.caller.subject}`;
  return `address:${normalizeAddress(ctx.remoteAddress)}`;
}

/** "::ffff:127.0.0.1" (IPv4 on a dual-stack socket) is 127.0.0.1. */
function normalizeAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}
