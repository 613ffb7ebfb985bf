import { ApprovalRequiredError } from '../errors/approval-required-error';
import { PermissionDeniedError } from '../errors/permission-denied-error';
import { missingScopes, type CallerIdentity } from '../identity/caller-identity';
import type { ApprovalOutcome, ApprovalProvider, ApprovalRequest } from './approval-provider';
import type { AuthorizationTarget } from './authorization-target';
import { requiresApproval, type MutationClass } from './mutation-class';

export const DEFAULT_APPROVAL_TIMEOUT_MS = 60_000;

/**
 * An allowed call: who, with which scopes, and the approval if one was needed.
 * @public
 */
export interface AuthorizationGrant {
  readonly identity: CallerIdentity;
  readonly requiredScopes: readonly string[];
  readonly mutationClass: MutationClass;
  readonly approval?: ApprovalOutcome;
}

/** @public */
export interface AuthorizeOptions {
  /** Longest wait for the approval provider (default 60 s); longer is a denial. */
  approvalTimeoutMs?: number;
  /** Included in the approval request. */
  target?: AuthorizationTarget;
  now?: () => Date;
}

/**
 * The authorization gate for an already verified (authenticated) caller:
 * 1. every required scope held, or {@link PermissionDeniedError} naming the missing ones;
 * 2. NON_IDEMPOTENT_WRITE / DESTRUCTIVE: the approval provider must approve
 *    (within the timeout; a timeout or a failing provider deny), or {@link ApprovalRequiredError}.
 * No side effects besides asking the provider: recording the decision is the caller's job
 * ({@link AuthorizationGate} does it).
 * @public
 */
export async function authorize(
  identity: CallerIdentity,
  requiredScopes: readonly string[],
  mutationClass: MutationClass,
  approval: ApprovalProvider,
  options: AuthorizeOptions = {},
): Promise<AuthorizationGrant> {
  const required = [...new Set(requiredScopes)];
  const missing = missingScopes(identity, required);
  if (missing.length > 0) throw new PermissionDeniedError(missing, required);
  if (!requiresApproval(mutationClass)) return { identity, requiredScopes: required, mutationClass };

  const target = options.target;
  const request: ApprovalRequest = {
    subject: identity.subject,
    delegatedBy: identity.delegatedBy ?? [],
    ...(identity.clientId ? { clientId: identity.clientId } : {}),
    mutationClass,
    requiredScopes: required,
    protocol: target?.protocol ?? 'http',
    service: target?.service ?? identity.audience,
    operation: target?.operation ?? 'unknown',
    ...(target?.traceId ? { traceId: target.traceId } : {}),
    requestedAt: (options.now ?? (() => new Date()))(),
  };
  const outcome = await askWithin(approval, request, options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS);
  if (!outcome.approved) throw new ApprovalRequiredError(mutationClass, outcome);
  return { identity, requiredScopes: required, mutationClass, approval: outcome };
}

async function askWithin(
  provider: ApprovalProvider,
  request: ApprovalRequest,
  timeoutMs: number,
): Promise<ApprovalOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ApprovalOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ required: true, approved: false, via: 'timeout', reason: `no decision within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const decided = Promise.resolve()
    .then(() => provider.decide(request))
    .then(
      (decision): ApprovalOutcome => ({
        required: true,
        // Only a literal true approves: a provider bug must not open the gate.
        approved: decision?.approved === true,
        via: 'decided',
        ...(typeof decision?.approver === 'string' ? { approver: decision.approver } : {}),
        ...(typeof decision?.reason === 'string' ? { reason: decision.reason } : {}),
      }),
      (): ApprovalOutcome => ({
        required: true,
        approved: false,
        via: 'error',
        reason: 'the approval provider failed',
      }),
    );
  try {
    return await Promise.race([decided, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
