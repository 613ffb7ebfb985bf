import { Controller, Inject } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { S2SP_META } from '@s2sp/core';
import { jsonObjectOr, PLATFORM_SCOPES, timestampToMs, AGENT_EXECUTION_ERROR, RECOVERY_HINT, type v1 } from '@s2sp/contracts';
import { AllowAnonymous, RequireScopes, requireCaller } from '@s2sp/auth';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { assertTimeRemains, earliestDeadline } from '../common/deadline-budget';
import { ApprovalRequiredError, InvalidRequestError, PreconditionFailedError } from '../common/request-errors';
import { traceOf } from '../grpc/trace-context';
import { uuidV7 } from '@s2sp/platform';
import { abortOnCancel, grpcDeadlineOf, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import { ToolInvoker } from './tool-invoker.service';
import { ToolListCursorCodec } from './tool-list-cursor';
import { invocationResponseMessage, serverStatusMessage, toolDescriptorMessage } from './tool-messages';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
const MAX_NAME_LENGTH = 256;
const MAX_INVOCATION_ID_LENGTH = 128;

/** s2sp.v1.ToolService: the tools of every MCP server, and calls to them. */
@Controller()
export class ToolController {
  private readonly cursors = new ToolListCursorCodec();

  constructor(
    private readonly connector: McpConnectorService,
    private readonly invoker: ToolInvoker,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
  ) {}

  /** Pages through the registry: page_size 0 → 50, capped at 200; cursors are tied to the registry version. */
  @GrpcMethod('ToolService', 'ListTools')
  listTools(request: v1.ListToolsRequest): v1.ListToolsResponse {
    try {
      const server = boundedString(request.server, 'server');
      if (server !== '') this.connector.connection(server);
      const pageSize = request.page_size ? Math.min(request.page_size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
      const registry = this.connector.registry;
      const version = registry.version;
      const tools = server === '' ? registry.all() : registry.forServer(server);
      const cursor = boundedString(request.cursor, 'cursor', 512);
      const offset = cursor === '' ? 0 : this.cursors.decode(cursor, { registryVersion: version, server }).offset;
      const page = tools.slice(offset, offset + pageSize);
      const end = offset + page.length;
      return {
        tools: page.map(toolDescriptorMessage),
        next_cursor: end < tools.length ? this.cursors.encode({ offset: end, registryVersion: version, server }) : '',
      };
    } catch (error) {
      throw toGrpcError(error);
    }
  }

  /**
   * Calls one tool. The deadline is the earlier of the gRPC deadline and
   * `deadline`; the MCP call gets what remains (minus a reserve for the way
   * back) as timeout and as `_meta['s2sp/deadline_ms']`. A client that
   * cancels the gRPC call cancels the MCP request. Only with
   * count_body_tokens is an S2SP resource tool asked to count its body's
   * tokens (usage.tokens_kept_out): that costs the server CPU on every call.
   */
  @GrpcMethod('ToolService', 'InvokeTool')
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  async invokeTool(request: v1.ToolInvocationRequest, metadata: Metadata, call: GrpcServerCall): Promise<v1.ToolInvocationResponse> {
    const trace = traceOf(request.trace, metadata);
    const cancellation = abortOnCancel(call);
    try {
      const toolName = boundedString(request.tool_name, 'tool_name');
      if (toolName === '') throw new InvalidRequestError('tool_name', 'is required');
      const server = boundedString(request.server, 'server');
      const invocationId = boundedString(request.invocation_id, 'invocation_id', MAX_INVOCATION_ID_LENGTH) || uuidV7();
      const deadline = earliestDeadline(grpcDeadlineOf(call), timestampToMs(request.deadline));
      assertTimeRemains(deadline, this.config.deadlines);
      if (request.requires_human_approval) {
        throw new ApprovalRequiredError(`${toolName} was requested with requires_human_approval, and the agents have no approval flow`);
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
        meta: request.count_body_tokens && tool.kind === 'S2SP_RESOURCE' ? { [S2SP_META.COUNT_TOKENS]: true } : undefined,
      });
      return invocationResponseMessage(invocationId, outcome, trace);
    } catch (error) {
      throw toGrpcError(error, trace?.trace_id);
    } finally {
      cancellation.dispose();
    }
  }

  // Operational status (server ids, redacted URLs, circuits) for health checks, which have no caller.
  @GrpcMethod('ToolService', 'ListServers')
  @AllowAnonymous()
  listServers(): v1.ListServersResponse {
    return { servers: this.connector.servers().map(serverStatusMessage) };
  }
}

/** A string field of a request: trimmed of nothing, bounded in length, control characters refused. */
function boundedString(value: string | undefined, field: string, maxLength = MAX_NAME_LENGTH): string {
  const text = value ?? '';
  if (text.length > maxLength) throw new InvalidRequestError(field, `must be at most ${maxLength} characters`);
  if (/[\u0000-\u001f\u007f]/.test(text)) throw new InvalidRequestError(field, 'must not contain control characters');
  return text;
}

/** The caller's mutation_class and tool_version, when set, must match what the server declares. */
function checkExpectations(request: v1.ToolInvocationRequest, mutationClass: string, version: string): void {
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
