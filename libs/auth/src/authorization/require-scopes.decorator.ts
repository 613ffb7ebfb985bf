import { SetMetadata } from '@nestjs/common';
import { assertValidScopes } from '../identity/scopes';

export const REQUIRED_SCOPES_METADATA = 's2sp:auth:required-scopes';
export const ALLOW_ANONYMOUS_METADATA = 's2sp:auth:allow-anonymous';

/**
 * Scopes a caller must hold (all of them) to run the handler. On a class, they
 * apply to every handler; class and handler requirements add up.
 * @public
 */
export function RequireScopes(...scopes: string[]): MethodDecorator & ClassDecorator {
  assertValidScopes(scopes);
  return SetMetadata(REQUIRED_SCOPES_METADATA, Object.freeze([...new Set(scopes)]));
}

/**
 * Lets a handler (e.g. a health check) run without a credential under the library's guards.
 * @public
 */
export function AllowAnonymous(): MethodDecorator & ClassDecorator {
  return SetMetadata(ALLOW_ANONYMOUS_METADATA, true);
}
