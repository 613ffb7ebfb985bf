import type { MutationClass } from './mutation-class';
import type { AuthProtocol } from './authorization-target';

/**
 * Injection token of the {@link ApprovalProvider}.
 * @public
 */
export const APPROVAL_PROVIDER = 'S2SP_AUTH_APPROVAL_PROVIDER';

/**
 * What a human approver is asked to decide. Carries no credential.
 * @public
 */
export interface ApprovalRequest {
  readonly subject: string;
  readonly delegatedBy: readonly string[];
  readonly clientId?: string;
  readonly mutationClass: MutationClass;
  readonly requiredScopes: readonly string[];
  readonly protocol: AuthProtocol;
  readonly service: string;
  /** Method, tool or route. */
  readonly operation: string;
  readonly traceId?: string;
  readonly requestedAt: Date;
}

/** @public */
export interface ApprovalDecision {
  readonly approved: boolean;
  /** Who approved or denied (a person or a policy id). */
  readonly approver?: string;
  readonly reason?: string;
}

/**
 * What the approval step ended with, as recorded in audit.
 * @public
 */
export interface ApprovalOutcome extends ApprovalDecision {
  readonly required: true;
  /** 'decided' by the provider, or the gate gave up: provider 'timeout' or 'error' (both deny). */
  readonly via: 'decided' | 'timeout' | 'error';
}

/**
 * Human-in-the-loop for NON_IDEMPOTENT_WRITE and DESTRUCTIVE operations
 * (the gate's check after the scopes, see authorize()). May resolve at once by policy (e.g. auto-approve for
 * a role) or wait for a person; the gate bounds the wait and denies on timeout
 * or error.
 * @public
 */
export interface ApprovalProvider {
  decide(request: ApprovalRequest): Promise<ApprovalDecision>;
}
