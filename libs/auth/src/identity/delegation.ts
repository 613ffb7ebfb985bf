/** Longest chain of services that may narrow one credential. */
export const MAX_DELEGATION_DEPTH = 8;

const ACTOR = /^[\x21-\x7E]{1,128}$/;

/** RFC 8693 §4.1 actor claim: the current actor outermost, earlier actors nested. */
export interface ActClaim {
  sub: string;
  act?: ActClaim;
}

/** The `act` claim for a chain given oldest first (the newest actor becomes the outermost `sub`). */
export function actClaimFromChain(chain: readonly string[]): ActClaim | undefined {
  let act: ActClaim | undefined;
  for (const actor of chain) act = act ? { sub: actor, act } : { sub: actor };
  return act;
}

/**
 * The services of an `act` claim, oldest first; [] when absent, undefined when
 * malformed (not nested objects with string `sub`, or deeper than allowed).
 */
export function chainFromActClaim(act: unknown): string[] | undefined {
  const newestFirst: string[] = [];
  let node = act;
  while (node !== undefined) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const { sub, act: inner } = node as { sub?: unknown; act?: unknown };
    if (typeof sub !== 'string' || !ACTOR.test(sub)) return undefined;
    newestFirst.push(sub);
    if (newestFirst.length > MAX_DELEGATION_DEPTH) return undefined;
    node = inner;
  }
  return newestFirst.reverse();
}

export function isValidActor(name: string): boolean {
  return ACTOR.test(name);
}
