import { hash } from 'node:crypto';
import { WeightedLruCache } from '@s2sp/platform/internal';
import { AuthenticationError } from '../errors/authentication-error';
import type { CallerIdentity } from './caller-identity';
import type { TokenVerifier, VerifyOptions } from './token-verifier';

export const DEFAULT_VERIFY_CACHE_SIZE = 10_000;
export const DEFAULT_VERIFY_CACHE_TTL_MS = 60_000;
/** Longest max age allowed: it is how long a key removed from the JWKS may still be honoured. */
export const MAX_VERIFY_CACHE_TTL_MS = 15 * 60_000;

/** @public */
export interface CachingTokenVerifierOptions {
  /** Most verified tokens remembered (default 10,000); 0 turns the cache off. */
  maxEntries?: number;
  /** How long one verification is honoured without checking the signature again, ms (default 60 s, at most 15 min). */
  maxAgeMs?: number;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
}

/**
 * A verifier that says how much clock skew it allows on `exp`, so that cache hits allow exactly the same.
 * @public
 */
export interface ClockTolerantTokenVerifier extends TokenVerifier {
  readonly clockToleranceSeconds: number;
}

interface VerifiedToken {
  readonly identity: CallerIdentity;
  /** A copy of `identity.expiresAt`: a Date stays mutable inside a frozen object. */
  readonly expiresAtMs: number;
  readonly verifiedAtMs: number;
}

/**
 * Remembers successful verifications, so a client that sends the same bearer
 * token again is not charged a signature check each time. A hit returns the
 * very same frozen {@link CallerIdentity} and still refuses a token that has
 * expired since; it is honoured for `maxAgeMs` at most, after which the token is
 * verified again against the current keys. Failures are never remembered.
 * Entries are keyed by the token's SHA-256 (never the token) and the call's
 * accepted audiences.
 * @public
 */
export class CachingTokenVerifier implements TokenVerifier {
  private readonly entries: WeightedLruCache<string, VerifiedToken>;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly inner: ClockTolerantTokenVerifier,
    options: CachingTokenVerifierOptions = {},
  ) {
    this.entries = new WeightedLruCache(options.maxEntries ?? DEFAULT_VERIFY_CACHE_SIZE, { budgetName: 'maxEntries' });
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_VERIFY_CACHE_TTL_MS;
    if (!Number.isSafeInteger(this.maxAgeMs) || this.maxAgeMs < 1 || this.maxAgeMs > MAX_VERIFY_CACHE_TTL_MS) {
      throw new RangeError(
        `maxAgeMs must be a whole number from 1 to ${MAX_VERIFY_CACHE_TTL_MS}, got ${this.maxAgeMs}`,
      );
    }
    this.now = options.now ?? Date.now;
  }

  async verify(token: string, options: VerifyOptions = {}): Promise<CallerIdentity> {
    if (this.entries.maxWeight === 0 || typeof token !== 'string' || token === '')
      return this.inner.verify(token, options);
    const key = cacheKey(token, options.audience);
    const startedMs = this.now();
    const hit = this.entries.get(key);
    if (hit && startedMs - hit.verifiedAtMs < this.maxAgeMs) {
      if (this.hasExpired(hit.expiresAtMs, startedMs)) {
        this.entries.delete(key);
        throw new AuthenticationError('expired');
      }
      return hit.identity;
    }
    const identity = await this.inner.verify(token, options);
    // The verification's age counts from before it started: never younger than it is.
    this.entries.set(key, { identity, expiresAtMs: identity.expiresAt.getTime(), verifiedAtMs: startedMs });
    return identity;
  }

  /** jose's rule: expired once `exp` ≤ now (whole seconds, rounded down) − tolerance. */
  private hasExpired(expiresAtMs: number, nowMs: number): boolean {
    return expiresAtMs <= (Math.floor(nowMs / 1000) - this.inner.clockToleranceSeconds) * 1000;
  }
}

/** The token's digest (fixed length), then the audiences the call accepts unless they are the verifier's own. */
function cacheKey(token: string, audience: VerifyOptions['audience']): string {
  const digest = hash('sha256', token, 'base64url');
  if (audience === undefined) return digest;
  return digest + JSON.stringify(typeof audience === 'string' ? [audience] : audience);
}
