import { Injectable } from '@nestjs/common';
import { RequireScopes } from '@s2sp/auth';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { measureTranscoding, Telemetry } from '@s2sp/telemetry';
import { DownstreamCredentials } from '../auth/downstream-credentials.service';
import { JsonRpcMethod, type JsonRpcCallContext } from '@s2sp/json-rpc';
import type { v1, v2 } from '@s2sp/contracts';
import { AgentSurfacesCache } from '../grpc/agent-surfaces-cache';
import type { CallOrigin } from '../grpc/agents-downstream';
import { ToolServiceClient } from '../grpc/tool-service.client';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  listToolsRequest,
  listToolsResult,
  toolCallResult,
  toolInvocationRequest,
  type CallToolResult,
  type ListToolsResult,
} from '../transcoding/tool-transcoding';
import { uuidV7 } from '@s2sp/platform/internal';
import { CallToolParams } from './dto/call-tool.params';
import { ListToolsParams } from './dto/list-tools.params';
import { CALL_TOOL_RESULT, INVOKE_TOOL_V2_RESULT, LIST_TOOLS_RESULT } from './results/result-schemas';
import {
  invokeToolRequestV2,
  invokeToolResultV2,
  type InvokeToolV2Result,
} from '../transcoding/invoke-tool-v2-transcoding';

/** tools.* -> s2sp.v1.ToolService of the agents; v2.tools.call -> s2sp.v2.ToolService. */
@Injectable()
export class ToolsMethods {
  constructor(
    private readonly tools: ToolServiceClient,
    private readonly credentials: DownstreamCredentials,
    private readonly telemetry: Telemetry,
    private readonly surfacesCache: AgentSurfacesCache,
  ) {}

  @JsonRpcMethod('tools.list', {
    params: ListToolsParams,
    result: LIST_TOOLS_RESULT,
    summary:
      'The tools of the MCP servers behind the agents, a page at a time (the first page also lists their resources, resource templates and prompts)',
    idempotent: true,
  })
  @RequireScopes(PLATFORM_SCOPES.TOOLS_LIST)
  async list(params: ListToolsParams, ctx: JsonRpcCallContext): Promise<ListToolsResult> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TOOLS_LIST);
    const request = listToolsRequest(params);
    if (request.cursor !== '') return listToolsResult((await this.tools.listTools(request, origin)).answer);
    const [tools, surfaces] = await this.firstPage(request, origin);
    return listToolsResult(tools, surfaces);
  }

  /**
   * The first page also carries the resources, resource templates and prompts
   * (agents of contract 2.1.0 on): kept from an earlier first page while the
   * surfaces fingerprint ListTools answers with is unchanged, else fetched.
   * Fetched after the tools, not beside them: a ListTools that fails (agents
   * down) then makes no second call, which the circuit breaker would count too.
   */
  private async firstPage(
    request: v1.ListToolsRequest,
    origin: CallOrigin,
  ): Promise<[v1.ListToolsResponse, v2.ListSurfacesResponse | undefined]> {
    const server = request.server;
    const tools = await this.tools.listTools(request, origin);
    const kept = this.surfacesCache.find(server, tools.surfacesFingerprint);
    if (kept) return [tools.answer, kept];
    const fetched = await this.tools.listSurfaces({ server }, origin);
    if (fetched) this.surfacesCache.keep(server, fetched);
    return [tools.answer, fetched?.answer];
  }

  @JsonRpcMethod('tools.call', {
    params: CallToolParams,
    result: CALL_TOOL_RESULT,
    summary: "Call one MCP tool through the agents; the result is MCP's tools/call result",
    description:
      'Deprecated since contract 2.0.0 (proto/CHANGELOG.md): use v2.tools.call, which also returns usage, provenance, the data-plane reference and a typed error. Served as long as s2sp.v1 is. Safe to retry only with an idempotency_key.',
    idempotent: false,
    deprecated: true,
  })
  @Idempotent()
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  async call(params: CallToolParams, ctx: JsonRpcCallContext): Promise<CallToolResult> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TOOLS_CALL, [params.name]);
    const request = measureTranscoding(this.telemetry, 'json-rpc', 'grpc', 'tools.call', () =>
      toolInvocationRequest(params, ctx, uuidV7()),
    );
    const response = await this.tools.invokeTool(request, origin);
    return measureTranscoding(this.telemetry, 'grpc', 'json-rpc', 'tools.call', () =>
      toolCallResult(response, params.name),
    );
  }

  @JsonRpcMethod('v2.tools.call', {
    params: CallToolParams,
    result: INVOKE_TOOL_V2_RESULT,
    summary:
      'Call one MCP tool through the agents (s2sp.v2): its result with usage, provenance and data-plane reference',
    description:
      'The same params as tools.call. Routed to s2sp.v2.ToolService/InvokeTool, whose answer is typed (binary content travels as bytes). A tool error is a result with isError and a typed error (code 1002, tool failure). Safe to retry only with an idempotency_key.',
    idempotent: false,
  })
  @Idempotent()
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  async callV2(params: CallToolParams, ctx: JsonRpcCallContext): Promise<InvokeToolV2Result> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TOOLS_CALL, [params.name]);
    const invocationId = uuidV7();
    const request = measureTranscoding(this.telemetry, 'json-rpc', 'grpc', 'v2.tools.call', () =>
      invokeToolRequestV2(params, ctx, invocationId),
    );
    const response = await this.tools.invokeToolV2(request, origin);
    return measureTranscoding(this.telemetry, 'grpc', 'json-rpc', 'v2.tools.call', () =>
      invokeToolResultV2(response, invocationId),
    );
  }
}
