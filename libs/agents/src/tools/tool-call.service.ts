import { Inject, Injectable } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { S2SP_META } from '@s2sp/core';
import { AGENT_EXECUTION_ERROR, RECOVERY_HINT, type v1 } from '@s2sp/contracts';
import { jsonObjectOr, timestampToMs } from '@s2sp/contracts/internal';
import { requireCaller } from '@s2sp/auth/internal';
import { uuidV7 } from '@s2sp/platform/internal';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { assertTimeRemains, earliestDeadline } from '../common/deadline-budget';
import { ApprovalRequiredError, PreconditionFailedError } from '../common/request-errors';
import { boundedString, requiredString } from '../common/request-strings';
import { traceOf, type TraceRecord } from '../grpc/trace-context';
import { abortOnCancel, grpcDeadlineOf, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { ToolInvoker, type ToolInvocationOutcome } from './tool-invoker.service';

const MAX_INVOCATION_ID_LENGTH = 128;

/**
 * The fields of an InvokeTool request that s2sp.v1's ToolInvocationRequest and
 * s2sp.v2's InvokeToolRequest share (v1 also has `deadline`; v2 carries the
 * deadline only as the gRPC deadline).
 */
export type ToolCallRequest = Pick<
  v1.ToolInvocationRequest,
  | 'invocation_id'
  | 'tool_name'
  | 'tool_version'
  | 'input_params'
  | 'trace'
  | 'mutation_class'
  | 'requires_human_approval'
  | 'server'
  | 'count_body_tokens'
> & { deadline?: v1.Timestamp };

/** Builds a version's InvokeTool answer from the outcome of the call. */
export type ToolCallAnswer<Response> = (
  invocationId: string,
  outcome: ToolInvocationOutcome,
  trace: TraceRecord | undefined,
) => Response;

/**
 * One InvokeTool call, whichever contract version asked: validates the
 * request, resolves the tool, calls it within the deadline (the earlier of
 * the gRPC deadline and the request's `deadline`; the MCP call gets what
 * remains, minus a reserve for the way back, as timeout and as
 * `_meta['s2sp/deadline_ms']`), and answers with `answer`. A client that
 * cancels the gRPC call cancels the MCP request. Only with count_body_tokens
 * is an S2SP resource tool asked to count its body's tokens
 * (usage.tokens_kept_out): that costs the server CPU on every call.
 * Failures are thrown as gRPC errors.
 */
@Injectable()
export class ToolCallService {
  constructor(
    private readonly invoker: ToolInvoker,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
  ) {}

  async call<Response>(
    request: ToolCallRequest,
    metadata: Metadata,
    call: GrpcServerCall,
    answer: ToolCallAnswer<Response>,
  ): Promise<Response> {
    const trace = traceOf(request.trace, metadata);
    const cancellation = abortOnCancel(call);
    try {
      const toolName = requiredString(request.tool_name, 'tool_name');
      const server = boundedString(request.server, 'server');
      const invocationId = boundedString(request.invocation_id, 'invocation_id', MAX_INVOCATION_ID_LENGTH) || uuidV7();
      const deadline = earliestDeadline(grpcDeadlineOf(call), timestampToMs(request.deadline));
      assertTimeRemains(deadline, this.config.deadlines);
      if (request.requires_human_approval) {
        throw new ApprovalRequiredError(
          `${toolName} was requested with requires_human_approval, and the agents have no approval flow`,
        );
      }
      const args = jsonObjectOr(request.input_params);

      const tool = await this.invoker.resolve(toolName, server || undefined, deadline, cancellation.signal);
      checkExpectations(request, tool.mutationClass, tool.version);
      const outcome = await this.invoker.invoke({
        tool,
        caller: requireCaller(metadata, 'gRPC call'),
        traceId: trace?.trace_id,
        arguments: args,
        deadlineMs: deadline,
        signal: cancellation.signal,
        meta:
          request.count_body_tokens && tool.kind === 'S2SP_RESOURCE' ? { [S2SP_META.COUNT_TOKENS]: true } : undefined,
      });
      return answer(invocationId, outcome, trace);
    } catch (error) {
      throw toGrpcError(error, trace?.trace_id);
    } finally {
      cancellation.dispose();
    }
  }
}

/** The caller's mutation_class and tool_version, when set, must match what the server declares. */
function checkExpectations(request: ToolCallRequest, mutationClass: string, version: string): void {
  const expected = request.mutation_class ?? 'MUTATION_CLASS_UNSPECIFIED';
  const declared = `MUTATION_CLASS_${mutationClass}`;
  if (expected !== 'MUTATION_CLASS_UNSPECIFIED' && mutationClass !== 'UNSPECIFIED' && expected !== declared) {
    throw new PreconditionFailedError(
      `mutation_class: the caller expects ${expected}, but ${request.tool_name} is ${declared}`,
      AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
      RECOVERY_HINT.CHECK_TOOL_ARGUMENTS,
    );
  }
  if (request.tool_version && request.tool_version !== version) {
    throw new PreconditionFailedError(
      `tool_version: the caller expects ${request.tool_version}, but the server offers version ${version || '(none)'}`,
      AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
      RECOVERY_HINT.CHECK_TOOL_ARGUMENTS,
    );
  }
}
