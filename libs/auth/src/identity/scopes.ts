/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const MAX_SCOPE_LENGTH = 256;
const MAX_SCOPES = 256;

/** @internal */
export function isValidScope(scope: unknown): scope is string {
  return typeof scope === 'string' && scope.length <= MAX_SCOPE_LENGTH && SCOPE_TOKEN.test(scope);
}

/** Throws a TypeError naming the first invalid scope. */
export function assertValidScopes(scopes: readonly unknown[]): asserts scopes is readonly string[] {
  if (scopes.length > MAX_SCOPES) throw new TypeError(`at most ${MAX_SCOPES} scopes are allowed, got ${scopes.length}`);
  for (const scope of scopes) {
    if (!isValidScope(scope))
      throw new TypeError(
        `invalid scope ${JSON.stringify(scope)}: scopes are non-empty printable ASCII without spaces, quotes or backslashes`,
      );
  }
}

/**
 * Splits an OAuth `scope` string ("a b  c") into its scopes.
 * @internal
 */
export function splitScopes(value: string): string[] {
  return value.split(' ').filter((scope) => scope !== '');
}

/**
 * The scopes of a verified claims set: the space-separated `scope` claim
 * (RFC 8693 / RFC 9068), or else the `scp` array (a space-separated `scp`
 * string is accepted too). Undefined when the claim is malformed.
 */
export function scopesFromClaims(payload: Readonly<Record<string, unknown>>): string[] | undefined {
  let scopes: unknown[];
  if (payload.scope !== undefined) {
    if (typeof payload.scope !== 'string') return undefined;
    scopes = splitScopes(payload.scope);
  } else if (payload.scp !== undefined) {
    if (typeof payload.scp === 'string') scopes = splitScopes(payload.scp);
    else if (Array.isArray(payload.scp)) scopes = payload.scp;
    else return undefined;
  } else {
    return [];
  }
  if (scopes.length > MAX_SCOPES || !scopes.every(isValidScope)) return undefined;
  return [...new Set(scopes)];
}

/**
 * The scope a consumer's token needs at a resource server's data plane (`POST /s2sp/data/<token>`).
 * @public
 */
export const S2SP_DATA_READ_SCOPE = 's2sp:data:read';
