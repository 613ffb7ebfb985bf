import { AuthError, AuthJsonRpcCode } from './auth-error';

/**
 * The caller is authenticated but lacks scopes the operation requires. Names them: scope names are not secrets.
 * @public
 */
export class PermissionDeniedError extends AuthError {
  readonly missingScopes: readonly string[];
  readonly requiredScopes: readonly string[];

  constructor(missingScopes: readonly string[], requiredScopes: readonly string[] = missingScopes) {
    const missing = [...missingScopes];
    super(
      'PERMISSION_DENIED',
      403,
      AuthJsonRpcCode.INSUFFICIENT_SCOPE,
      `Missing required scope${missing.length === 1 ? '' : 's'}: ${missing.join(', ')}.`,
      { missing_scopes: missing, required_scopes: [...requiredScopes] },
    );
    this.missingScopes = Object.freeze(missing);
    this.requiredScopes = Object.freeze([...requiredScopes]);
  }
}
