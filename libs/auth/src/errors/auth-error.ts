import { HttpException } from '@nestjs/common';

/**
 * Stable, protocol-neutral codes of the errors the auth library raises.
 * @public
 */
export type AuthErrorCode = 'UNAUTHENTICATED' | 'PERMISSION_DENIED' | 'APPROVAL_REQUIRED';

/**
 * Base of every error the library throws at a caller. One error, mapped to each
 * protocol: an HTTP status (it is a Nest HttpException, so Nest's default filter
 * answers `{ error: { code, message, ...details } }`) and a JSON-RPC code from the
 * platform's 4000-4999 range; @s2sp/grpc's guard maps `code` to a gRPC status.
 *
 * `message` and `details` are public: they never hold a token, a claim value or
 * the reason a credential was rejected.
 * @public
 */
export abstract class AuthError extends HttpException {
  protected constructor(
    readonly code: AuthErrorCode,
    httpStatus: number,
    readonly jsonRpcCode: number,
    message: string,
    /** Caller-safe structured details, e.g. `{ missing_scopes: [...] }` (JSON-RPC `error.data`). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super({ error: { code, message, ...details } }, httpStatus);
    this.message = message;
    this.name = new.target.name;
  }

  /** The JSON body an HTTP endpoint answers with. */
  toJSON(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

/**
 * JSON-RPC codes of the platform's authorization range (4000-4999 of its application error codes).
 * @internal
 */
export const AuthJsonRpcCode = {
  UNAUTHENTICATED: 4001,
  INSUFFICIENT_SCOPE: 4002,
  APPROVAL_REQUIRED: 4003,
} as const;
