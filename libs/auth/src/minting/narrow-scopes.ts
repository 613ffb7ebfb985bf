import { S2SP_DATA_READ_SCOPE } from '../identity/scopes';

/** @public */
export interface NarrowedScopes {
  /** held ∩ needed, in `needed`'s order, without repeats. */
  granted: string[];
  /** needed \ held: what a downstream token would have to gain (and must not). */
  missing: string[];
}

/**
 * Scope narrowing at a boundary: a hop passes on only the scopes the next call
 * needs, and only if its caller holds them (scopes are never widened).
 * @public
 */
export function narrowScopes(held: readonly string[], needed: readonly string[]): NarrowedScopes {
  const heldSet = new Set(held);
  const granted: string[] = [];
  const missing: string[] = [];
  for (const scope of new Set(needed)) (heldSet.has(scope) ? granted : missing).push(scope);
  return { granted, missing };
}

/**
 * What a token for an S2SP consumer tool carries beyond the tool's own scopes:
 * the caller's `s2sp:data:read` and resource-tool scopes (of `resourceToolScopes`),
 * so the consumer can narrow its data-plane fetch from them. Never more than the caller holds.
 * @internal
 */
export function consumerDataScopes(
  caller: { scopes: readonly string[] },
  resourceToolScopes: readonly string[],
): string[] {
  return narrowScopes(caller.scopes, [S2SP_DATA_READ_SCOPE, ...resourceToolScopes]).granted;
}
