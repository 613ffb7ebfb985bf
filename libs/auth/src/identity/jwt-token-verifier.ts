import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { jose } from '../lazy-jose';
import { AuthenticationError, type AuthenticationFailureReason } from '../errors/authentication-error';
import { isSigningAlgorithm, SIGNING_ALGORITHMS, type SigningAlgorithm } from '../keys/signing-key';
import type { CallerIdentity } from './caller-identity';
import { chainFromActClaim } from './delegation';
import { createKeySet, type KeySet, type KeySetSource } from './key-set';
import { scopesFromClaims } from './scopes';
import type { TokenVerifier, VerifyOptions } from './token-verifier';

export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
export const DEFAULT_MAX_TOKEN_LENGTH = 8192;
const MAX_SUBJECT_LENGTH = 256;

/** @public */
export interface JwtTokenVerifierOptions {
  /** Audience(s) this service accepts: its own name (`aud` must contain one of them). */
  audience: string | readonly string[];
  /** Trusted issuer(s) (`iss` must be one of them). */
  issuer: string | readonly string[];
  keys: KeySetSource | KeySet;
  /** Allowed clock skew for `exp`/`nbf`, seconds (default 30). */
  clockToleranceSeconds?: number;
  /** A subset of RS256/ES256 (default both). Nothing else is ever accepted. */
  algorithms?: readonly SigningAlgorithm[];
  /** Longest token accepted, characters (default 8192). */
  maxTokenLength?: number;
}

/**
 * Verifies bearer JWTs with jose: signature by a trusted key (RS256 or ES256
 * only: `none`, HS* and the rest are refused before any key is looked at),
 * `iss`, `aud`, `exp` (required) and `nbf` with a small clock tolerance, and a
 * non-empty `sub`. Every failure is the same {@link AuthenticationError}; the
 * check that failed is in its server-side `reason`.
 * @public
 */
export class JwtTokenVerifier implements TokenVerifier {
  private readonly keySet: KeySet;
  private readonly audiences: readonly string[];
  private readonly issuers: readonly string[];
  private readonly algorithms: readonly SigningAlgorithm[];
  /** Allowed clock skew for `exp`/`nbf`, seconds. */
  readonly clockToleranceSeconds: number;
  private readonly maxTokenLength: number;

  constructor(options: JwtTokenVerifierOptions) {
    this.audiences = nonEmptyList(options.audience, 'audience');
    this.issuers = nonEmptyList(options.issuer, 'issuer');
    this.algorithms = [...(options.algorithms ?? SIGNING_ALGORITHMS)];
    if (this.algorithms.length === 0 || !this.algorithms.every(isSigningAlgorithm)) {
      throw new RangeError(`algorithms must be a non-empty subset of ${SIGNING_ALGORITHMS.join(', ')}`);
    }
    this.clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    if (
      !Number.isInteger(this.clockToleranceSeconds) ||
      this.clockToleranceSeconds < 0 ||
      this.clockToleranceSeconds > 300
    ) {
      throw new RangeError(`clockToleranceSeconds must be an integer from 0 to 300, got ${this.clockToleranceSeconds}`);
    }
    this.maxTokenLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN_LENGTH;
    this.keySet = 'kind' in options.keys ? createKeySet(options.keys) : options.keys;
  }

  async verify(token: string, options: VerifyOptions = {}): Promise<CallerIdentity> {
    if (typeof token !== 'string' || token === '') throw new AuthenticationError('missing-token');
    if (token.length > this.maxTokenLength) throw new AuthenticationError('token-too-large');
    this.checkHeader(token);
    const audiences = options.audience === undefined ? this.audiences : nonEmptyList(options.audience, 'audience');
    const payload = await this.verifySignatureAndClaims(token, audiences);
    return this.identityOf(payload, audiences);
  }

  /** Refuses unsigned, symmetric and unknown algorithms before any key lookup. */
  private checkHeader(token: string): void {
    if (token.split('.').length !== 3) throw new AuthenticationError('malformed-token', 'not a compact JWS');
    let header: ProtectedHeaderParameters;
    try {
      header = jose().decodeProtectedHeader(token);
    } catch {
      throw new AuthenticationError('malformed-token', 'header');
    }
    const alg = header.alg;
    if (typeof alg !== 'string') throw new AuthenticationError('malformed-token', 'no alg');
    if (alg.toLowerCase() === 'none') throw new AuthenticationError('unsecured-token');
    if (!(this.algorithms as readonly string[]).includes(alg))
      throw new AuthenticationError('algorithm-not-allowed', alg.slice(0, 16));
  }

  private async verifySignatureAndClaims(token: string, audiences: readonly string[]): Promise<JWTPayload> {
    const attempt = () =>
      jose().jwtVerify(token, this.keySet.getKey, {
        algorithms: [...this.algorithms],
        issuer: [...this.issuers],
        audience: [...audiences],
        clockTolerance: this.clockToleranceSeconds,
        requiredClaims: ['sub', 'exp'],
      });
    try {
      return (await attempt()).payload;
    } catch (error) {
      if (error instanceof jose().errors.JWKSNoMatchingKey && (await this.keySet.refresh())) {
        try {
          return (await attempt()).payload;
        } catch (retryError) {
          throw toAuthenticationError(retryError);
        }
      }
      throw toAuthenticationError(error);
    }
  }

  private identityOf(payload: JWTPayload, audiences: readonly string[]): CallerIdentity {
    const { sub, iss, exp } = payload;
    if (typeof sub !== 'string' || sub.trim() === '' || sub.length > MAX_SUBJECT_LENGTH) {
      throw new AuthenticationError('missing-subject');
    }
    const scopes = scopesFromClaims(payload);
    if (!scopes) throw new AuthenticationError('invalid-claims', 'scope');
    const delegatedBy = chainFromActClaim(payload.act);
    if (!delegatedBy) throw new AuthenticationError('invalid-claims', 'act');
    const tokenAudiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    const audience = tokenAudiences.find((aud) => audiences.includes(aud)) ?? audiences[0];
    const clientId = stringClaim(payload.client_id) ?? stringClaim(payload.azp);
    const tokenId = stringClaim(payload.jti);
    return Object.freeze({
      subject: sub,
      scopes: Object.freeze(scopes),
      audience,
      issuer: iss!,
      expiresAt: new Date(exp! * 1000),
      delegatedBy: Object.freeze(delegatedBy),
      ...(tokenId ? { tokenId } : {}),
      ...(clientId ? { clientId } : {}),
    });
  }
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= 256 ? value : undefined;
}

function nonEmptyList(value: string | readonly string[], name: string): readonly string[] {
  const list = typeof value === 'string' ? [value] : [...value];
  if (list.length === 0 || list.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new RangeError(`${name} must be a non-empty string or list of non-empty strings`);
  }
  return list;
}

/** jose's error → one AuthenticationError with a distinct reason (and never the token). */
export function toAuthenticationError(error: unknown): AuthenticationError {
  if (error instanceof AuthenticationError) return error;
  const reason = ((): [AuthenticationFailureReason, string?] => {
    const { errors } = jose();
    if (error instanceof errors.JWTExpired) return ['expired'];
    if (error instanceof errors.JWTClaimValidationFailed) return claimFailure(error.claim, error.reason);
    if (error instanceof errors.JWSSignatureVerificationFailed) return ['bad-signature'];
    if (error instanceof errors.JWKSMultipleMatchingKeys) return ['bad-signature', 'no matching key verified'];
    if (error instanceof errors.JWKSNoMatchingKey) return ['unknown-key'];
    if (error instanceof errors.JOSEAlgNotAllowed) return ['algorithm-not-allowed'];
    if (error instanceof errors.JWKSTimeout) return ['key-set-unavailable', 'timeout'];
    if (error instanceof errors.JWKSInvalid || error instanceof errors.JWKInvalid)
      return ['key-set-unavailable', 'invalid key set'];
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return ['malformed-token'];
    if (error instanceof errors.JOSENotSupported) return ['malformed-token', 'unsupported'];
    if (error instanceof errors.JOSEError) return ['verification-failed', error.code];
    // fetch failures of a remote JWKS, unreadable files, ...
    return ['key-set-unavailable', error instanceof Error ? error.name : typeof error];
  })();
  return new AuthenticationError(...reason);
}

function claimFailure(claim: string, reason: string): [AuthenticationFailureReason, string?] {
  switch (claim) {
    case 'aud':
      return ['wrong-audience'];
    case 'iss':
      return ['wrong-issuer'];
    case 'sub':
      return ['missing-subject'];
    case 'nbf':
      return reason === 'check_failed' ? ['not-yet-valid'] : ['invalid-claims', 'nbf'];
    case 'exp':
      return reason === 'missing' ? ['missing-expiry'] : ['invalid-claims', 'exp'];
    default:
      return ['invalid-claims', claim.slice(0, 32)];
  }
}
