import type { AuthenticationFailureReason } from '../errors/authentication-error';
import type { ApprovalOutcome } from '../authorization/approval-provider';
import type { AuthProtocol } from '../authorization/authorization-target';
import type { MutationClass } from '../authorization/mutation-class';

/**
 * Why a decision went the way it did.
 * @public
 */
export type AuditOutcome = 'authorized' | 'unauthenticated' | 'missing-scopes' | 'approval-denied';

/**
 * One authorization decision, allow or deny, at one hop. It identifies the
 * caller by subject, delegation chain and token id, and never holds a token,
 * a header value or a resource URL.
 * @public
 */
export interface AuditEvent {
  /** ISO-8601 instant of the decision. */
  readonly time: string;
  readonly decision: 'allow' | 'deny';
  readonly outcome: AuditOutcome;
  /** For `unauthenticated`: which check failed (server-side detail). */
  readonly authenticationFailure?: AuthenticationFailureReason;

  // who
  /** Absent when the caller could not be authenticated. */
  readonly subject?: string;
  /** Services that narrowed the credential before this hop, oldest first. */
  readonly delegatedBy: readonly string[];
  readonly clientId?: string;
  /** `jti` of the presented token: an identifier, not the credential. */
  readonly tokenId?: string;
  readonly issuer?: string;
  /** Scopes the caller held. */
  readonly callerScopes?: readonly string[];

  // what
  readonly protocol: AuthProtocol;
  /** The deciding service (audience). */
  readonly service: string;
  /** Method, tool or route pattern. */
  readonly operation: string;
  readonly requiredScopes: readonly string[];
  readonly missingScopes: readonly string[];
  readonly mutationClass: MutationClass;
  /** Present when the operation needed approval. */
  readonly approval?: ApprovalOutcome;

  // where
  readonly traceId?: string;
  readonly remoteAddress?: string;
}
