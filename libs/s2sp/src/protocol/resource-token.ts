import { hash, randomBytes } from 'node:crypto';

/** 32 bytes = 256 bits, base64url without padding: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh capability token for a resource_url, from the OS CSPRNG. */
export function generateResourceToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** A fresh token with the hash a store keeps of it. */
export function newResourceToken(): { token: string; tokenHash: string } {
  return newResourceTokens(1)[0];
}

/**
 * `count` fresh tokens with their hashes, from one draw of the CSPRNG: a draw costs several
 * microseconds whatever its size, six times what slicing and hashing a token costs.
 */
export function newResourceTokens(count: number): Array<{ token: string; tokenHash: string }> {
  const entropy = randomBytes(TOKEN_BYTES * count);
  return Array.from({ length: count }, (_, index) => {
    const token = entropy.toString('base64url', index * TOKEN_BYTES, (index + 1) * TOKEN_BYTES);
    return { token, tokenHash: hashResourceToken(token) };
  });
}

/** What stores keep instead of the token: SHA-256, hex (one-shot: a third of a Hash object's cost). */
export function hashResourceToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function isWellFormedResourceToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export const DATA_PLANE_PATH = '/s2sp/data';

export function resourceUrlFor(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${DATA_PLANE_PATH}/${token}`;
}
