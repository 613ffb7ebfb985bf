/**
 * Agent execution error codes (1000-1999 of the platform's error codes): JSON-RPC
 * `error.code` at the gateway, gRPC trailer `x-s2sp-error-code` from the agents,
 * `code` of a failed task or step.
 * @public
 */
export const AGENT_EXECUTION_ERROR = {
  /** Anything else, including an agents restart that interrupted the task. */
  EXECUTION_FAILED: 1000,
  /** constraints.max_steps reached before the plan finished. */
  STEP_LIMIT_EXCEEDED: 1001,
  /** A tool answered with an error, or its MCP server could not be reached. */
  TOOL_FAILURE: 1002,
  /** Sub-tasks nested deeper than constraints.max_recursion_depth. */
  RECURSION_DEPTH_EXCEEDED: 1003,
  /** The plan cannot run as given (tool missing, not an S2SP tool, not permitted, ambiguous). */
  PRECONDITION_FAILED: 1004,
  /** The task was cancelled (CancelTask). */
  EXECUTION_ABORTED: 1005,
  /** The task deadline passed; details.hop names where (agents, mcp, data-plane). */
  DEADLINE_EXCEEDED: 1006,
  /** constraints.token_budget: the control plane alone needs more tokens than allowed. */
  TOKEN_BUDGET_EXCEEDED: 1007,
} as const;
