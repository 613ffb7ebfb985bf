import { AuthError, AuthJsonRpcCode } from './auth-error';

/** The one message every authentication failure shows the caller, whatever went wrong. */
export const AUTHENTICATION_FAILED_MESSAGE = 'Invalid or expired credentials.';

/**
 * Why a credential was rejected. For server-side logs and audit only: telling a
 * caller which check failed helps an attacker tune a forged token.
 * @public
 */
export type AuthenticationFailureReason =
  | 'missing-token'
  | 'malformed-authorization-header'
  | 'token-too-large'
  | 'malformed-token'
  | 'unsecured-token'
  | 'algorithm-not-allowed'
  | 'unknown-key'
  | 'bad-signature'
  | 'expired'
  | 'not-yet-valid'
  | 'wrong-audience'
  | 'wrong-issuer'
  | 'missing-subject'
  | 'missing-expiry'
  | 'invalid-claims'
  | 'key-set-unavailable'
  | 'no-identity'
  | 'verification-failed';

/**
 * A missing, malformed, forged, expired or misdirected credential. The public
 * message is always {@link AUTHENTICATION_FAILED_MESSAGE}; `reason` (and the
 * optional `detail`, e.g. the claim name) are for server logs. Both are kept in
 * private fields so that serializing the error never exposes them.
 * @public
 */
export class AuthenticationError extends AuthError {
  readonly #reason: AuthenticationFailureReason;
  readonly #detail: string | undefined;

  constructor(reason: AuthenticationFailureReason, detail?: string) {
    super('UNAUTHENTICATED', 401, AuthJsonRpcCode.UNAUTHENTICATED, AUTHENTICATION_FAILED_MESSAGE);
    this.#reason = reason;
    this.#detail = detail;
  }

  /** Server-side only. */
  get reason(): AuthenticationFailureReason {
    return this.#reason;
  }

  /** Server-side only: a short, token-free hint such as the failing claim's name. */
  get detail(): string | undefined {
    return this.#detail;
  }
}
