import { RECOVERY_HINT } from '@s2sp/contracts';
import { type RecoveryHintValue } from '@s2sp/contracts/internal';
import { JsonRpcErrorCode, errorCategory } from './json-rpc-error-codes';

export { RECOVERY_HINT, type RecoveryHintValue };

const BY_CODE: Readonly<Record<number, RecoveryHintValue>> = {
  [JsonRpcErrorCode.DEADLINE_EXCEEDED]: RECOVERY_HINT.RETRY_WITH_LONGER_DEADLINE,
  [JsonRpcErrorCode.UPSTREAM_UNAVAILABLE]: RECOVERY_HINT.RETRY_WITH_BACKOFF,
  [JsonRpcErrorCode.RECURSION_DEPTH_EXCEEDED]: RECOVERY_HINT.REDUCE_DECOMPOSITION_GRANULARITY,
  [JsonRpcErrorCode.PRECONDITION_FAILED]: RECOVERY_HINT.REFRESH_STATE_AND_RETRY,
  [JsonRpcErrorCode.EXECUTION_ABORTED]: RECOVERY_HINT.RETRY_WITH_BACKOFF,
  [JsonRpcErrorCode.UNAUTHENTICATED]: RECOVERY_HINT.AUTHENTICATE,
  [JsonRpcErrorCode.INSUFFICIENT_SCOPE]: RECOVERY_HINT.REQUEST_ADDITIONAL_SCOPE,
  [JsonRpcErrorCode.APPROVAL_REQUIRED]: RECOVERY_HINT.AWAIT_APPROVAL,
  [JsonRpcErrorCode.RATE_LIMITED]: RECOVERY_HINT.RETRY_AFTER,
  [JsonRpcErrorCode.TOKEN_BUDGET_EXHAUSTED]: RECOVERY_HINT.REDUCE_BUDGET_USAGE,
};

/** The hint used when the thrower gave none; undefined for the five standard codes. */
export function defaultRecoveryHint(code: number): RecoveryHintValue | undefined {
  if (BY_CODE[code]) return BY_CODE[code];
  switch (errorCategory(code)) {
    case 'protocol':
      return undefined;
    case 'server':
      return RECOVERY_HINT.RETRY_WITH_BACKOFF;
    case 'agent_execution':
      return RECOVERY_HINT.REVISE_TASK;
    case 'retrieval':
      return RECOVERY_HINT.BROADEN_QUERY;
    case 'memory':
      return RECOVERY_HINT.RESOLVE_CONFLICT;
    case 'authorization':
      return RECOVERY_HINT.AUTHENTICATE;
    case 'rate_quota':
      return RECOVERY_HINT.RETRY_AFTER;
    default:
      return RECOVERY_HINT.CONTACT_SUPPORT;
  }
}
