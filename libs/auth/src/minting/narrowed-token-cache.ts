import { WeightedLruCache } from '@s2sp/platform/internal';
import type { CallerIdentity } from '../identity/caller-identity';

export const DEFAULT_MINT_CACHE_SIZE = 10_000;
export const DEFAULT_MINT_REUSE_SLACK_MS = 5_000;
export const MAX_MINT_REUSE_SLACK_MS = 60_000;

/** @public */
export interface NarrowedTokenCacheOptions {
  /** Most narrowed tokens remembered (default 10,000); 0 signs a new token for every call. */
  maxEntries?: number;
  /**
   * How much earlier than a fresh token's a reused token's `exp` may be, ms
   * (default 5 s); never more than 10 % of the fresh token's lifetime.
   */
  reuseSlackMs?: number;
}

/** Everything a narrowed token's claims and signature depend on, apart from `iat` and `jti`. */
export interface NarrowingInput {
  caller: CallerIdentity;
  granted: readonly string[];
  nextAudience: string;
  /** `kid` of the signing key: a rotated key must not keep handing out tokens of the old one. */
  signingKeyId: string;
}

interface NarrowedToken {
  readonly token: string;
  readonly expiresAtMs: number;
}

/**
 * Narrowed tokens already signed, handed out again for the same narrowing
 * while they obey the lifetime rule of a fresh token for this call: `exp` no
 * later than the bound a fresh token would get now, and not noticeably earlier.
 */
export class NarrowedTokenCache {
  private readonly entries: WeightedLruCache<string, NarrowedToken>;
  private readonly reuseSlackMs: number;

  constructor(options: NarrowedTokenCacheOptions = {}) {
    this.entries = new WeightedLruCache(options.maxEntries ?? DEFAULT_MINT_CACHE_SIZE, { budgetName: 'maxEntries' });
    this.reuseSlackMs = options.reuseSlackMs ?? DEFAULT_MINT_REUSE_SLACK_MS;
    if (
      !Number.isSafeInteger(this.reuseSlackMs) ||
      this.reuseSlackMs < 0 ||
      this.reuseSlackMs > MAX_MINT_REUSE_SLACK_MS
    ) {
      throw new RangeError(
        `reuseSlackMs must be a whole number from 0 to ${MAX_MINT_REUSE_SLACK_MS}, got ${this.reuseSlackMs}`,
      );
    }
  }

  /**
   * The token signed before for `key`, if its expiry is within
   * [bound − min(slack, 10 % of (bound − now)), bound].
   */
  find(key: string, boundMs: number, nowMs: number): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const slackMs = Math.min(this.reuseSlackMs, 0.1 * (boundMs - nowMs));
    return entry.expiresAtMs <= boundMs && entry.expiresAtMs >= boundMs - slackMs ? entry.token : undefined;
  }

  remember(key: string, token: string, expiresAtMs: number): void {
    this.entries.set(key, { token, expiresAtMs });
  }

  static keyOf({ caller, granted, nextAudience, signingKeyId }: NarrowingInput): string {
    return JSON.stringify([
      caller.subject,
      caller.issuer,
      caller.audience,
      caller.tokenId ?? null,
      caller.expiresAt.getTime(),
      caller.clientId ?? null,
      caller.delegatedBy ?? [],
      granted,
      nextAudience,
      signingKeyId,
    ]);
  }
}
