const REDACTED = '[redacted]';

/** A compact JWS/JWE: base64url segments joined by dots, starting with a JSON header (`{"` → `eyJ`). */
const JWT_SHAPED = /\beyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){1,4}/g;
/** `Bearer <credential>` (any case) and `Basic <credential>` anywhere (headers, curl lines, error text). */
const AUTH_SCHEME = /\b([Bb][Ee][Aa][Rr][Ee][Rr]|Basic(?=\s+[A-Za-z0-9+/=]{8}))(\s+)[A-Za-z0-9._~+/=-]+/g;
/** The capability in an S2SP resource URL: `/s2sp/data/<token>`. */
const RESOURCE_TOKEN = /(\/s2sp\/data\/)[A-Za-z0-9_-]+/g;

/**
 * Masks credentials in text meant for logs: anything JWT-shaped, `Bearer …`
 * (and `Basic …`) credentials, and S2SP resource tokens in `/s2sp/data/<token>`.
 * @public
 */
export function redactTokens(text: string): string {
  return text
    .replace(AUTH_SCHEME, (_match, scheme: string, space: string) => `${scheme}${space}${REDACTED}`)
    .replace(JWT_SHAPED, REDACTED)
    .replace(RESOURCE_TOKEN, `$1${REDACTED}`);
}

/**
 * {@link redactTokens} through every string of a JSON-like value (objects are copied, not mutated).
 * @public
 */
export function redactDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return redactTokens(value) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, depth + 1)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    copy[key] =
      /^(authorization|access_token|id_token|refresh_token|token)$/i.test(key) && typeof item === 'string'
        ? REDACTED
        : redactDeep(item, depth + 1);
  return copy as T;
}
