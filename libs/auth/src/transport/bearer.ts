import { AuthenticationError } from '../errors/authentication-error';

/** RFC 6750 §2.1: "Bearer" (any case), one or more spaces, a b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The token of an HTTP `Authorization` header or gRPC `authorization` metadata
 * value. Anything else — absent, empty, several values, another scheme, a
 * malformed token — is an {@link AuthenticationError} (reason `missing-token`
 * or `malformed-authorization-header`).
 * @public
 */
export function bearerFromHeader(value: string | readonly unknown[] | undefined | null): string {
  if (value === undefined || value === null || value === '') throw new AuthenticationError('missing-token');
  if (Array.isArray(value)) {
    if (value.length === 0) throw new AuthenticationError('missing-token');
    if (value.length > 1) throw new AuthenticationError('malformed-authorization-header', 'several values');
    return bearerFromHeader(value[0] as string);
  }
  if (typeof value !== 'string') throw new AuthenticationError('malformed-authorization-header', 'not text');
  const match = BEARER.exec(value);
  if (!match)
    throw new AuthenticationError(
      'malformed-authorization-header',
      value.trim() === '' ? 'empty' : 'not a bearer credential',
    );
  return match[1];
}

/**
 * `Bearer <token>`, for an outgoing `Authorization` header.
 * @public
 */
export function bearerHeader(token: string): string {
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) throw new TypeError('not a bearer token');
  return `Bearer ${token}`;
}
