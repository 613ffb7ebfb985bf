import type { CallerIdentity } from './caller-identity';

/**
 * Injection token of the {@link TokenVerifier} the auth module provides.
 * @public
 */
export const TOKEN_VERIFIER = 'S2SP_AUTH_TOKEN_VERIFIER';

/** @public */
export interface VerifyOptions {
  /** Audience(s) to accept instead of the verifier's own, e.g. for a second route of the same service. */
  audience?: string | readonly string[];
}

/**
 * Turns a bearer token into a {@link CallerIdentity}, or throws
 * {@link AuthenticationError}. Implementations never log or echo the token.
 * @public
 */
export interface TokenVerifier {
  verify(token: string, options?: VerifyOptions): Promise<CallerIdentity>;
}
