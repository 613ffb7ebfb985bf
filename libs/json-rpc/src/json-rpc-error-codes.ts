import { AGENT_EXECUTION_ERROR } from '@s2sp/contracts';
/**
 * The platform's unified error code space, one set of codes for every hop (README.md,
 * "The platform path: gateway and agents", lists them). The five standard codes are the
 * JSON-RPC 2.0 ones; -32000..-32099 are implementation-defined server errors;
 * positive codes are the platform's application errors, grouped by thousand.
 * @internal
 */
export const JsonRpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,

  DEADLINE_EXCEEDED: -32000,
  UPSTREAM_UNAVAILABLE: -32001,
  /** Another request with the same idempotency_key is still running. */
  REQUEST_IN_PROGRESS: -32002,

  // 1000-1999 agent execution
  AGENT_EXECUTION_FAILED: AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
  STEP_LIMIT_EXCEEDED: AGENT_EXECUTION_ERROR.STEP_LIMIT_EXCEEDED,
  TOOL_FAILURE: AGENT_EXECUTION_ERROR.TOOL_FAILURE,
  RECURSION_DEPTH_EXCEEDED: AGENT_EXECUTION_ERROR.RECURSION_DEPTH_EXCEEDED,
  PRECONDITION_FAILED: AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
  EXECUTION_ABORTED: AGENT_EXECUTION_ERROR.EXECUTION_ABORTED,
  // 2000-2999 retrieval
  RETRIEVAL_FAILED: 2000,
  // 3000-3999 memory
  MEMORY_WRITE_REJECTED: 3000,
  // 4000-4999 authorization
  UNAUTHENTICATED: 4001,
  INSUFFICIENT_SCOPE: 4002,
  APPROVAL_REQUIRED: 4003,
  // 5000-5999 rate / quota
  RATE_LIMITED: 5001,
  TOKEN_BUDGET_EXHAUSTED: 5002,
} as const;

export type ErrorCategory =
  'protocol' | 'server' | 'agent_execution' | 'retrieval' | 'memory' | 'authorization' | 'rate_quota' | 'unclassified';

export const STANDARD_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  [JsonRpcErrorCode.PARSE_ERROR]: 'Parse error',
  [JsonRpcErrorCode.INVALID_REQUEST]: 'Invalid Request',
  [JsonRpcErrorCode.METHOD_NOT_FOUND]: 'Method not found',
  [JsonRpcErrorCode.INVALID_PARAMS]: 'Invalid params',
  [JsonRpcErrorCode.INTERNAL_ERROR]: 'Internal error',
};

export function errorCategory(code: number): ErrorCategory {
  if (code in STANDARD_ERROR_MESSAGES) return 'protocol';
  if (code >= -32099 && code <= -32000) return 'server';
  if (code >= 1000 && code <= 1999) return 'agent_execution';
  if (code >= 2000 && code <= 2999) return 'retrieval';
  if (code >= 3000 && code <= 3999) return 'memory';
  if (code >= 4000 && code <= 4999) return 'authorization';
  if (code >= 5000 && code <= 5999) return 'rate_quota';
  return 'unclassified';
}

/** Application codes are everything outside the five JSON-RPC standard codes; they carry a recovery hint. */
export function isApplicationCode(code: number): boolean {
  return errorCategory(code) !== 'protocol';
}
