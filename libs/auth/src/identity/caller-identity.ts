/**
 * Who is calling, as established by a verified bearer token. It travels as a
 * typed value through every hop (JSON-RPC → gRPC → MCP → data plane), never as ambient state, and it
 * never contains the token itself.
 * @public
 */
export interface CallerIdentity {
  /** The original caller (`sub`): the user or service account on whose authority every hop acts. */
  readonly subject: string;
  /** Granted scopes, OAuth style (from `scope`, or `scp`). */
  readonly scopes: readonly string[];
  /** The audience the token was accepted for: the service that verified it. */
  readonly audience: string;
  readonly issuer: string;
  /** `jti`, when the token has one: an identifier for audit, not the credential. */
  readonly tokenId?: string;
  readonly expiresAt: Date;
  /** `client_id` (or `azp`): the client application the caller used. */
  readonly clientId?: string;
  /**
   * Services that narrowed the credential on its way here, oldest first
   * (from the RFC 8693 `act` claim); empty for a token straight from the issuer.
   */
  readonly delegatedBy?: readonly string[];
}

/**
 * The scopes of `required` that `identity` does not hold, in `required`'s order, without repeats.
 * @public
 */
export function missingScopes(identity: Pick<CallerIdentity, 'scopes'>, required: readonly string[]): string[] {
  const held = new Set(identity.scopes);
  return [...new Set(required)].filter((scope) => !held.has(scope));
}

export function hasScopes(identity: Pick<CallerIdentity, 'scopes'>, required: readonly string[]): boolean {
  return missingScopes(identity, required).length === 0;
}
