import { randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { jose } from '../lazy-jose';
import { AuthenticationError } from '../errors/authentication-error';
import { DelegationRefusedError } from '../errors/delegation-refused-error';
import { ScopeWideningError } from '../errors/scope-widening-error';
import type { CallerIdentity } from '../identity/caller-identity';
import { actClaimFromChain, isValidActor, MAX_DELEGATION_DEPTH } from '../identity/delegation';
import { assertValidScopes } from '../identity/scopes';
import type { SigningKey, SigningKeySource } from '../keys/signing-key';
import { narrowScopes } from './narrow-scopes';
import { NarrowedTokenCache, type NarrowedTokenCacheOptions } from './narrowed-token-cache';

/**
 * Internal (delegated) tokens live at most this long: there is no revocation list,
 * so a short lifetime bounds the exposure (docs/auth.md, "Security notes and limits").
 */
export const MAX_DELEGATED_TTL_SECONDS = 15 * 60;
/** Longest lifetime {@link TokenMinter.mint} accepts unless configured otherwise. */
export const DEFAULT_MAX_TTL_SECONDS = 24 * 60 * 60;

/** @public */
export interface TokenMinterOptions {
  /** `iss` of every minted token; verifiers must trust it. */
  issuer: string;
  signingKey: SigningKeySource;
  /** Upper bound of {@link MintRequest.ttlSeconds} (default 24 h). */
  maxTtlSeconds?: number;
  /** Upper bound of a narrowed token's lifetime; at most (and by default) 15 minutes. */
  maxDelegatedTtlSeconds?: number;
  /** Reuse of narrowed tokens by {@link TokenMinter.narrowToken} (default: on, 10,000 entries). */
  narrowedTokenCache?: NarrowedTokenCacheOptions;
  /** Milliseconds since the epoch; for tests. */
  now?: () => number;
}

/** @public */
export interface MintRequest {
  subject: string;
  scopes: readonly string[];
  audience: string;
  ttlSeconds: number;
  clientId?: string;
  /** Services that narrowed the credential so far, oldest first (becomes the `act` claim). */
  delegationChain?: readonly string[];
}

/**
 * Signs tokens with the platform key (the dev key by default): first-party
 * tokens with {@link mint}, and caller-scoped downstream tokens with
 * {@link narrowToken}, which can only ever narrow.
 * @public
 */
export class TokenMinter {
  readonly issuer: string;
  private readonly maxTtlSeconds: number;
  private readonly maxDelegatedTtlSeconds: number;
  private readonly now: () => number;
  private readonly narrowed: NarrowedTokenCache;

  constructor(private readonly options: TokenMinterOptions) {
    if (typeof options.issuer !== 'string' || options.issuer.trim() === '')
      throw new RangeError('issuer must be a non-empty string');
    this.issuer = options.issuer;
    this.maxTtlSeconds = options.maxTtlSeconds ?? DEFAULT_MAX_TTL_SECONDS;
    this.maxDelegatedTtlSeconds = Math.min(
      options.maxDelegatedTtlSeconds ?? MAX_DELEGATED_TTL_SECONDS,
      MAX_DELEGATED_TTL_SECONDS,
    );
    if (!Number.isSafeInteger(this.maxTtlSeconds) || this.maxTtlSeconds < 1)
      throw new RangeError('maxTtlSeconds must be a positive integer');
    if (!Number.isSafeInteger(this.maxDelegatedTtlSeconds) || this.maxDelegatedTtlSeconds < 1) {
      throw new RangeError('maxDelegatedTtlSeconds must be a positive integer');
    }
    this.now = options.now ?? Date.now;
    this.narrowed = new NarrowedTokenCache(options.narrowedTokenCache);
  }

  /** A token for `subject` with exactly `scopes`, for `audience`, valid `ttlSeconds`. */
  async mint(request: MintRequest): Promise<string> {
    const { subject, audience, ttlSeconds } = request;
    if (typeof subject !== 'string' || subject.trim() === '' || subject.length > 256)
      throw new RangeError('subject must be a non-empty string of at most 256 characters');
    if (typeof audience !== 'string' || audience.trim() === '')
      throw new RangeError('audience must be a non-empty string');
    if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > this.maxTtlSeconds) {
      throw new RangeError(`ttlSeconds must be an integer from 1 to ${this.maxTtlSeconds}, got ${ttlSeconds}`);
    }
    assertValidScopes(request.scopes);
    const nowMs = this.now();
    return this.sign(
      { subject, scopes: request.scopes, audience, clientId: request.clientId, chain: request.delegationChain ?? [] },
      Math.floor(nowMs / 1000),
      Math.floor(nowMs / 1000) + ttlSeconds,
      await this.options.signingKey.getSigningKey(),
    );
  }

  /**
   * The token a hop sends downstream on behalf of `caller`:
   * - scopes = caller.scopes ∩ needed; a needed scope the caller lacks is refused
   *   with {@link ScopeWideningError} (never widened);
   * - `aud` = `nextAudience`, `sub` = the original caller;
   * - lifetime ≤ 15 minutes and ≤ the caller's own token (whole seconds, rounded
   *   down), and ends with the deadline: at its first whole second (rounded up, so
   *   the token is still valid while the deadline has not passed);
   * - `act` records the chain: the services that narrowed it so far plus this
   *   one (`caller.audience`, the service that verified the caller's token).
   *
   * The same narrowing asked for again gets the token signed before, as long
   * as its `exp` is within the bound above and at most min(reuse slack, 10 %
   * of the lifetime) earlier; the refusals above come first either way.
   */
  async narrowToken(
    caller: CallerIdentity,
    needed: readonly string[],
    nextAudience: string,
    remainingDeadlineMs?: number,
  ): Promise<string> {
    if (typeof nextAudience !== 'string' || nextAudience.trim() === '')
      throw new RangeError('nextAudience must be a non-empty string');
    assertValidScopes(needed);
    const { granted, missing } = narrowScopes(caller.scopes, needed);
    if (missing.length > 0) throw new ScopeWideningError(missing);

    const nowMs = this.now();
    // The deadline first: a caller token capped by the same deadline expires with it,
    // and a spent budget must read as a deadline, not as a failed login.
    if (remainingDeadlineMs !== undefined && !(remainingDeadlineMs > 0)) {
      throw new DelegationRefusedError('deadline-passed', 'The deadline has passed: no downstream token is issued.');
    }
    if (caller.expiresAt.getTime() <= nowMs)
      throw new AuthenticationError('expired', 'caller token expired before delegation');
    const chain = [...(caller.delegatedBy ?? []), caller.audience];
    if (chain.length > MAX_DELEGATION_DEPTH) {
      throw new DelegationRefusedError(
        'chain-too-long',
        `A credential may be delegated at most ${MAX_DELEGATION_DEPTH} times.`,
      );
    }
    if (!chain.every(isValidActor)) throw new RangeError('delegation chain holds an invalid service name');

    const boundMs = narrowedExpiryBoundMs(
      Math.min(nowMs + this.maxDelegatedTtlSeconds * 1000, caller.expiresAt.getTime()),
      remainingDeadlineMs === undefined ? undefined : nowMs + remainingDeadlineMs,
    );
    const key = await this.options.signingKey.getSigningKey();
    const reuseKey = NarrowedTokenCache.keyOf({ caller, granted, nextAudience, signingKeyId: key.kid });
    const reused = this.narrowed.find(reuseKey, boundMs, nowMs);
    if (reused !== undefined) return reused;

    const expiresAt = Math.floor(boundMs / 1000);
    const token = await this.sign(
      { subject: caller.subject, scopes: granted, audience: nextAudience, clientId: caller.clientId, chain },
      Math.floor(nowMs / 1000),
      expiresAt,
      key,
    );
    this.narrowed.remember(reuseKey, token, expiresAt * 1000);
    return token;
  }

  private async sign(
    claims: {
      subject: string;
      scopes: readonly string[];
      audience: string;
      clientId?: string;
      chain: readonly string[];
    },
    issuedAt: number,
    expiresAt: number,
    key: SigningKey,
  ): Promise<string> {
    const payload: JWTPayload = { scope: claims.scopes.join(' ') };
    if (claims.clientId) payload.client_id = claims.clientId;
    const act = actClaimFromChain(claims.chain);
    if (act) payload.act = act;
    return new (jose().SignJWT)(payload)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(claims.subject)
      .setAudience(claims.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(key.privateKey);
  }
}

/**
 * The latest `exp` (ms) a narrowed token may have. The lifetime caps (15 minutes,
 * the caller's token) are never exceeded: `exp` is their second rounded down.
 * The deadline is rounded up to its whole second instead: a token that expired
 * before its deadline would make the next hop refuse a call that still has budget
 * with "expired credentials", where the answer must be the deadline's own error.
 */
function narrowedExpiryBoundMs(lifetimeCapMs: number, deadlineMs: number | undefined): number {
  const deadlineBoundMs = deadlineMs === undefined ? Number.POSITIVE_INFINITY : Math.ceil(deadlineMs / 1000) * 1000;
  return Math.min(lifetimeCapMs, deadlineBoundMs);
}
