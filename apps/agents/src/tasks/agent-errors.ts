import type { JsonObject } from '@s2sp/contracts';

/**
 * Agent execution error codes (1000-1999, the agent execution range of the
 * platform's unified error codes), used in
 * ErrorInfo.code of failed tasks and steps and in the x-s2sp-error-code
 * trailer of FAILED_PRECONDITION. 1000-1005 are the gateway's
 * JsonRpcErrorCode values; 1006-1008 are added by the agents.
 */
export const AGENT_ERROR = {
  /** Anything else, including an agents restart that interrupted the task. */
  EXECUTION_FAILED: 1000,
  /** constraints.max_steps reached before the plan finished. */
  STEP_LIMIT_EXCEEDED: 1001,
  /** A tool answered with an error, or its MCP server could not be reached. */
  TOOL_FAILURE: 1002,
  /** The plan cannot run as given (tool missing, not an S2SP tool, not permitted, ambiguous). */
  PRECONDITION_FAILED: 1004,
  /** The task was cancelled (CancelTask). */
  EXECUTION_ABORTED: 1005,
  /** The task deadline passed; details.hop names where (agents, mcp, data-plane). */
  DEADLINE_EXCEEDED: 1006,
  /** constraints.token_budget: the control plane alone needs more tokens than allowed. */
  TOKEN_BUDGET_EXCEEDED: 1007,
} as const;

/** Machine-readable next steps for the caller (ErrorInfo.recovery_hint, x-s2sp-recovery-hint). */
export const RECOVERY_HINT = {
  RETRY_LATER: 'RETRY_LATER',
  EXTEND_DEADLINE: 'EXTEND_DEADLINE',
  FIX_PLAN: 'FIX_PLAN',
  NAME_THE_SERVER: 'NAME_THE_SERVER',
  RAISE_MAX_STEPS: 'RAISE_MAX_STEPS',
  REDUCE_ABSTRACT_DOMAINS: 'REDUCE_ABSTRACT_DOMAINS',
  PERMIT_TOOL: 'PERMIT_TOOL',
  CHECK_TOOL_ARGUMENTS: 'CHECK_TOOL_ARGUMENTS',
  RESUBMIT_TASK: 'RESUBMIT_TASK',
  NONE: 'NONE',
} as const;

/** ErrorInfo as stored and streamed (JSON form of s2sp.v1.ErrorInfo). */
export interface TaskErrorInfo {
  code: number;
  message: string;
  recovery_hint: string;
  details?: JsonObject;
}

export function taskError(code: number, message: string, recoveryHint: string, details?: JsonObject): TaskErrorInfo {
  return details ? { code, message, recovery_hint: recoveryHint, details } : { code, message, recovery_hint: recoveryHint };
}
