import { JsonRpcErrorCode, errorCategory } from './json-rpc-error-codes';

/** Machine-readable next step for the client, carried as error.data.recovery_hint. */
export const RecoveryHint = {
  RETRY_WITH_BACKOFF: 'RETRY_WITH_BACKOFF',
  RETRY_AFTER: 'RETRY_AFTER',
  RETRY_WITH_LONGER_DEADLINE: 'RETRY_WITH_LONGER_DEADLINE',
  AUTHENTICATE: 'AUTHENTICATE',
  REQUEST_ADDITIONAL_SCOPE: 'REQUEST_ADDITIONAL_SCOPE',
  AWAIT_APPROVAL: 'AWAIT_APPROVAL',
  REDUCE_DECOMPOSITION_GRANULARITY: 'REDUCE_DECOMPOSITION_GRANULARITY',
  REVISE_TASK: 'REVISE_TASK',
  REFRESH_STATE_AND_RETRY: 'REFRESH_STATE_AND_RETRY',
  BROADEN_QUERY: 'BROADEN_QUERY',
  RESOLVE_CONFLICT: 'RESOLVE_CONFLICT',
  REDUCE_BUDGET_USAGE: 'REDUCE_BUDGET_USAGE',
  CONTACT_SUPPORT: 'CONTACT_SUPPORT',
} as const;

export type RecoveryHintValue = (typeof RecoveryHint)[keyof typeof RecoveryHint] | (string & {});

const BY_CODE: Readonly<Record<number, RecoveryHintValue>> = {
  [JsonRpcErrorCode.DEADLINE_EXCEEDED]: RecoveryHint.RETRY_WITH_LONGER_DEADLINE,
  [JsonRpcErrorCode.UPSTREAM_UNAVAILABLE]: RecoveryHint.RETRY_WITH_BACKOFF,
  [JsonRpcErrorCode.RECURSION_DEPTH_EXCEEDED]: RecoveryHint.REDUCE_DECOMPOSITION_GRANULARITY,
  [JsonRpcErrorCode.PRECONDITION_FAILED]: RecoveryHint.REFRESH_STATE_AND_RETRY,
  [JsonRpcErrorCode.EXECUTION_ABORTED]: RecoveryHint.RETRY_WITH_BACKOFF,
  [JsonRpcErrorCode.UNAUTHENTICATED]: RecoveryHint.AUTHENTICATE,
  [JsonRpcErrorCode.INSUFFICIENT_SCOPE]: RecoveryHint.REQUEST_ADDITIONAL_SCOPE,
  [JsonRpcErrorCode.APPROVAL_REQUIRED]: RecoveryHint.AWAIT_APPROVAL,
  [JsonRpcErrorCode.RATE_LIMITED]: RecoveryHint.RETRY_AFTER,
  [JsonRpcErrorCode.TOKEN_BUDGET_EXHAUSTED]: RecoveryHint.REDUCE_BUDGET_USAGE,
};

/** The hint used when the thrower gave none; undefined for the five standard codes. */
export function defaultRecoveryHint(code: number): RecoveryHintValue | undefined {
  if (BY_CODE[code]) return BY_CODE[code];
  switch (errorCategory(code)) {
    case 'protocol':
      return undefined;
    case 'server':
      return RecoveryHint.RETRY_WITH_BACKOFF;
    case 'agent_execution':
      return RecoveryHint.REVISE_TASK;
    case 'retrieval':
      return RecoveryHint.BROADEN_QUERY;
    case 'memory':
      return RecoveryHint.RESOLVE_CONFLICT;
    case 'authorization':
      return RecoveryHint.AUTHENTICATE;
    case 'rate_quota':
      return RecoveryHint.RETRY_AFTER;
    default:
      return RecoveryHint.CONTACT_SUPPORT;
  }
}
