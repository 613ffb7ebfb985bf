export interface NarrowedScopes {
  /** held ∩ needed, in `needed`'s order, without repeats. */
  granted: string[];
  /** needed \ held: what a downstream token would have to gain (and must not). */
  missing: string[];
}

/**
 * Scope narrowing at a boundary (chapter 4.8.2): a hop passes on only the scopes
 * the next call needs, and only if its caller holds them.
 */
export function narrowScopes(held: readonly string[], needed: readonly string[]): NarrowedScopes {
  const heldSet = new Set(held);
  const granted: string[] = [];
  const missing: string[] = [];
  for (const scope of new Set(needed)) (heldSet.has(scope) ? granted : missing).push(scope);
  return { granted, missing };
}
