import { AuthError, AuthJsonRpcCode } from './auth-error';

/**
 * A hop asked for a downstream token with scopes its caller does not hold.
 * Scopes may be narrowed at every boundary, never widened.
 * @public
 */
export class ScopeWideningError extends AuthError {
  readonly missingScopes: readonly string[];

  constructor(missingScopes: readonly string[]) {
    const missing = [...missingScopes];
    super(
      'PERMISSION_DENIED',
      403,
      AuthJsonRpcCode.INSUFFICIENT_SCOPE,
      `Refused to widen scope: the caller lacks ${missing.length === 1 ? 'scope' : 'scopes'} ${missing.join(', ')}.`,
      { missing_scopes: missing },
    );
    this.missingScopes = Object.freeze(missing);
  }
}
