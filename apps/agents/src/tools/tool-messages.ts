import { createHash } from 'node:crypto';
import { countTokens } from '@s2sp/core';
import { toJsonObject, toTimestamp, AGENT_EXECUTION_ERROR, type v1 } from '@s2sp/contracts';
import { traceMessage, type TraceRecord } from '../grpc/trace-context';
import type { UsageRecord } from '../common/usage';
import { dataPlaneMessage, timestampOrUnset, usageMessage } from '../grpc/common-messages';
import type { McpServerConnection } from '../mcp/mcp-server-connection';
import type { RegisteredTool } from '../mcp/registered-tool';
import { dataPlaneRefOf } from './data-plane-ref';
import { modelVisibleText } from './model-visible-text';
import { textOfContent, toolResultAsJson } from './mcp-tool-result';
import { readS2spResourceAnswer } from './s2sp-resource-answer';
import type { ToolInvocationOutcome } from './tool-invoker.service';

/** s2sp.v1.ToolDescriptor. */
export function toolDescriptorMessage(tool: RegisteredTool): v1.ToolDescriptor {
  return {
    name: tool.name,
    server: tool.serverId,
    description: tool.description,
    input_schema: toJsonObject(tool.inputSchema),
    output_schema: tool.outputSchema ? toJsonObject(tool.outputSchema) : undefined,
    mutation_class: `MUTATION_CLASS_${tool.mutationClass}`,
    kind: `TOOL_KIND_${tool.kind}`,
    version: tool.version,
    title: tool.title ?? '',
    required_scopes: tool.scopes,
  };
}

const CIRCUIT_STATE = { closed: 'CIRCUIT_STATE_CLOSED', 'half-open': 'CIRCUIT_STATE_HALF_OPEN', open: 'CIRCUIT_STATE_OPEN' } as const;

/** s2sp.v1.McpServerStatus: no credentials (the url is redacted, errors are sanitised). */
export function serverStatusMessage(connection: McpServerConnection): v1.McpServerStatus {
  const status = connection.status();
  return {
    id: connection.id,
    url: connection.displayUrl,
    connected: status.connected,
    circuit: CIRCUIT_STATE[status.circuit.state],
    tool_count: status.toolCount,
    last_error: status.lastError ?? '',
    tools_refreshed_at: status.toolsRefreshedAt ? toTimestamp(status.toolsRefreshedAt) : undefined,
  };
}

/**
 * s2sp.v1.ToolInvocationResponse for an MCP result: the CallToolResult as
 * `output`, SUCCESS or ERROR (tool error), the data-plane reference of S2SP
 * resource answers, and usage: tokens_in_context = what a model would read,
 * tokens_kept_out = `_meta['s2sp/body_tokens']` when the server counted them.
 */
export function invocationResponseMessage(invocationId: string, outcome: ToolInvocationOutcome, trace: TraceRecord | undefined): v1.ToolInvocationResponse {
  const { result, tool } = outcome;
  const answer = readS2spResourceAnswer(result);
  const visible = modelVisibleText(result, answer);
  const output = toolResultAsJson(result);
  const usage: UsageRecord = {
    tokens_in_context: countTokens(visible),
    tokens_kept_out: answer?.bodyTokens ?? 0,
    tool_calls: 1,
    wall_time_ms: outcome.finishedAt - outcome.startedAt,
    data_plane_bytes: answer?.bodyBytes ?? 0,
    rows_in_context: answer?.abstract.length ?? 0,
    rows_kept_out: answer ? answer.totalRows : 0,
  };
  return {
    invocation_id: invocationId,
    status: result.isError ? 'TOOL_RESULT_STATUS_ERROR' : 'TOOL_RESULT_STATUS_SUCCESS',
    output: toJsonObject(output),
    error_message: result.isError ? textOfContent(result) || 'the tool reported an error' : '',
    error_code: result.isError ? AGENT_EXECUTION_ERROR.TOOL_FAILURE : 0,
    usage: usageMessage(usage),
    trace: traceMessage(trace),
    provenance: {
      server: tool.serverId,
      tool: tool.name,
      resource_url: answer?.resourceUrl ?? '',
      retrieved_at: timestampOrUnset(outcome.finishedAt),
      content_sha256: createHash('sha256').update(JSON.stringify(output)).digest('hex'),
    },
    data_plane: answer ? dataPlaneMessage(dataPlaneRefOf(answer, true)) : undefined,
  };
}
