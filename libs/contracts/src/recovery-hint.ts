/**
 * Machine-readable next step for the caller of a failed call: JSON-RPC
 * `error.data.recovery_hint`, gRPC trailer `x-s2sp-recovery-hint`, and
 * `recovery_hint` of a failed task or step. One vocabulary for every hop.
 * @public
 */
export const RECOVERY_HINT = {
  /** A transient failure downstream: try again later, backing off. */
  RETRY_WITH_BACKOFF: 'RETRY_WITH_BACKOFF',
  /** Rate limited or not ready yet: try again after the time given (retry_after_ms / Retry-After). */
  RETRY_AFTER: 'RETRY_AFTER',
  /** The deadline passed (the error names the hop): retry with a later deadline. */
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
  /** The plan cannot run as given: fix it (tool names, arguments, mapping). */
  FIX_PLAN: 'FIX_PLAN',
  /** A tool name matches tools of several servers: name the server. */
  NAME_THE_SERVER: 'NAME_THE_SERVER',
  RAISE_MAX_STEPS: 'RAISE_MAX_STEPS',
  /** The control plane alone passes the token budget: ask for fewer abstract columns. */
  REDUCE_ABSTRACT_DOMAINS: 'REDUCE_ABSTRACT_DOMAINS',
  /** The task's constraints do not allow the tool. */
  PERMIT_TOOL: 'PERMIT_TOOL',
  CHECK_TOOL_ARGUMENTS: 'CHECK_TOOL_ARGUMENTS',
  /** The task was interrupted (e.g. the agents restarted): submit it again. */
  RESUBMIT_TASK: 'RESUBMIT_TASK',
  /** Nothing to do (e.g. the caller cancelled the task). */
  NONE: 'NONE',
} as const;

/** @internal */
export type RecoveryHintValue = (typeof RECOVERY_HINT)[keyof typeof RECOVERY_HINT];
