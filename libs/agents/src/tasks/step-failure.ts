import { AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import { AuthError, DelegationRefusedError } from '@s2sp/auth';
import { Logger } from '@nestjs/common';
import type { JsonObject } from '@s2sp/contracts';
import { PreconditionFailedError } from '../common/request-errors';
import {
  AmbiguousToolError,
  DeadlineExceededError,
  McpRequestRejectedError,
  McpServerUnavailableError,
  ToolCallCancelledError,
  ToolNotFoundError,
  UnknownMcpServerError,
} from '../mcp/tool-call-errors';
import { taskError, type TaskErrorInfo } from './agent-errors';
import type { StepRecord, ToolCallRecord } from './task-records';

/** A step that did not succeed: its record (outcome FAILURE, with usage so far) and why. */
export class StepFailure extends Error {
  constructor(
    readonly record: StepRecord,
    readonly error: TaskErrorInfo,
    /** The step stopped because the task was cancelled (hard), not because it failed. */
    readonly cancelled: boolean,
  ) {
    super(error.message);
    this.name = 'StepFailure';
  }
}

export interface ClassifiedFailure {
  error: TaskErrorInfo;
  cancelled: boolean;
  /** Status for the tool call record, when the failure was a tool call's. */
  callStatus: ToolCallRecord['status'];
}

const logger = new Logger('TaskRuntime');

/** ErrorInfo (agent codes 1000-1999) for whatever stopped a step. */
export function classifyStepError(error: unknown): ClassifiedFailure {
  if (error instanceof DeadlineExceededError) {
    return {
      error: taskError(
        AGENT_EXECUTION_ERROR.DEADLINE_EXCEEDED,
        `Deadline exceeded (hop ${error.hop}): ${error.message}`,
        RECOVERY_HINT.RETRY_WITH_LONGER_DEADLINE,
        { hop: error.hop },
      ),
      cancelled: false,
      callStatus: 'TIMEOUT',
    };
  }
  if (error instanceof McpServerUnavailableError) {
    const details: JsonObject = { server: error.serverId };
    if (error.retryAfterMs !== undefined) details.retry_after_ms = error.retryAfterMs;
    return {
      error: taskError(AGENT_EXECUTION_ERROR.TOOL_FAILURE, error.message, RECOVERY_HINT.RETRY_WITH_BACKOFF, details),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof AmbiguousToolError) {
    return {
      error: taskError(AGENT_EXECUTION_ERROR.PRECONDITION_FAILED, error.message, RECOVERY_HINT.NAME_THE_SERVER),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof ToolNotFoundError || error instanceof UnknownMcpServerError) {
    return {
      error: taskError(AGENT_EXECUTION_ERROR.PRECONDITION_FAILED, error.message, RECOVERY_HINT.FIX_PLAN),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof PreconditionFailedError) {
    return {
      error: taskError(error.errorCode, error.message, error.recoveryHint ?? RECOVERY_HINT.FIX_PLAN),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof ToolCallCancelledError) {
    return {
      error: taskError(AGENT_EXECUTION_ERROR.EXECUTION_ABORTED, error.message, RECOVERY_HINT.NONE),
      cancelled: true,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof AuthError) {
    // The caller may not do this step (missing scope, approval refused): its own code (4001/4002/4003), never "internal".
    const details: JsonObject = { ...(error.details as JsonObject) };
    return {
      error: taskError(error.jsonRpcCode, error.message, RECOVERY_HINT.NONE, details),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof DelegationRefusedError) {
    return {
      error: taskError(
        AGENT_EXECUTION_ERROR.DEADLINE_EXCEEDED,
        `Deadline exceeded (hop agents): ${error.message}`,
        RECOVERY_HINT.RETRY_WITH_LONGER_DEADLINE,
        { hop: 'agents' },
      ),
      cancelled: false,
      callStatus: 'TIMEOUT',
    };
  }
  if (error instanceof McpRequestRejectedError && error.isAuthRefusal) {
    // The MCP server refused the caller's narrowed token: a refusal (4001/4002/4003), not a wrong argument.
    const details: JsonObject | undefined =
      error.missingScopes.length > 0 ? { missing_scopes: [...error.missingScopes] } : undefined;
    return {
      error: taskError(error.mcpCode, error.message, RECOVERY_HINT.NONE, details),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  if (error instanceof McpRequestRejectedError) {
    return {
      error: taskError(AGENT_EXECUTION_ERROR.TOOL_FAILURE, error.message, RECOVERY_HINT.CHECK_TOOL_ARGUMENTS),
      cancelled: false,
      callStatus: 'ERROR',
    };
  }
  logger.error(
    error instanceof Error ? `${error.name}: ${error.message}` : 'non-Error thrown',
    error instanceof Error ? error.stack : undefined,
  );
  return {
    error: taskError(
      AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
      'internal error in the agents',
      RECOVERY_HINT.RESUBMIT_TASK,
    ),
    cancelled: false,
    callStatus: 'ERROR',
  };
}
