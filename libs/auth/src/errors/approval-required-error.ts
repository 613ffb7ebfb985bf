import { AuthError, AuthJsonRpcCode } from './auth-error';
import type { ApprovalOutcome } from '../authorization/approval-provider';
import type { MutationClass } from '../authorization/mutation-class';

/**
 * A state-changing operation (NON_IDEMPOTENT_WRITE or DESTRUCTIVE) that needs a
 * human approval which was not granted: denied, timed out, or no approver is configured.
 * @public
 */
export class ApprovalRequiredError extends AuthError {
  constructor(
    readonly mutationClass: MutationClass,
    /** What the approval step answered (server-side; its reason may name people). */
    readonly approval: ApprovalOutcome,
  ) {
    super(
      'APPROVAL_REQUIRED',
      403,
      AuthJsonRpcCode.APPROVAL_REQUIRED,
      `Approval required: ${mutationClass} operations need a human approval, which was not granted.`,
      { mutation_class: mutationClass },
    );
  }
}
