import { createHash } from 'node:crypto';
import { countTokens } from '@s2sp/core/internal';
import { AGENT_EXECUTION_ERROR, type v1 } from '@s2sp/contracts';
import { toJsonObject, toTimestamp } from '@s2sp/contracts/internal';
import { traceMessage, type TraceRecord } from '../grpc/trace-context';
import type { UsageRecord } from '../common/usage';
import { dataPlaneMessage, timestampOrUnset, usageMessage } from '../grpc/common-messages';
import type { McpServerConnection } from '../mcp/mcp-server-connection';
import type { RegisteredTool } from '../mcp/registered-tool';
import { dataPlaneRefOf } from './data-plane-ref';
import { modelVisibleText } from './model-visible-text';
import { textOfContent, toolResultAsJson } from './mcp-tool-result';
import { readS2spResourceAnswer } from '@s2sp/agent';
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

const CIRCUIT_STATE = {
  closed: 'CIRCUIT_STATE_CLOSED',
  'half-open': 'CIRCUIT_STATE_HALF_OPEN',
  open: 'CIRCUIT_STATE_OPEN',
} as const;

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

/** What the InvokeTool answers of every contract version report besides the result itself. */
export interface InvocationReport {
  usage: v1.ResourceUsage;
  trace: v1.TraceContext | undefined;
  provenance: v1.ProvenanceRecord;
  data_plane: v1.DataPlaneRef | undefined;
  /** The tool's own words when it reported an error, else ''. */
  error_message: string;
}

/**
 * Usage, provenance and data-plane reference of an MCP result:
 * tokens_in_context = what a model would read, tokens_kept_out =
 * `_meta['s2sp/body_tokens']` when the server counted them; the provenance
 * hash is over the result as JSON.
 */
export function invocationReport(outcome: ToolInvocationOutcome, trace: TraceRecord | undefined): InvocationReport {
  const { result, tool } = outcome;
  const answer = readS2spResourceAnswer(result);
  const visible = modelVisibleText(result, answer);
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
    usage: usageMessage(usage),
    trace: traceMessage(trace),
    provenance: {
      server: tool.serverId,
      tool: tool.name,
      resource_url: answer?.resourceUrl ?? '',
      retrieved_at: timestampOrUnset(outcome.finishedAt),
      content_sha256: createHash('sha256')
        .update(JSON.stringify(toolResultAsJson(result)))
        .digest('hex'),
    },
    data_plane: answer ? dataPlaneMessage(dataPlaneRefOf(answer, true)) : undefined,
    error_message: result.isError ? textOfContent(result) || 'the tool reported an error' : '',
  };
}

/**
 * s2sp.v1.ToolInvocationResponse for an MCP result: the CallToolResult as
 * `output`, SUCCESS or ERROR (tool error), and the {@link invocationReport}.
 */
export function invocationResponseMessage(
  invocationId: string,
  outcome: ToolInvocationOutcome,
  trace: TraceRecord | undefined,
): v1.ToolInvocationResponse {
  const { result } = outcome;
  const report = invocationReport(outcome, trace);
  return {
    invocation_id: invocationId,
    status: result.isError ? 'TOOL_RESULT_STATUS_ERROR' : 'TOOL_RESULT_STATUS_SUCCESS',
    output: toolResultAsJson(result),
    error_message: report.error_message,
    error_code: result.isError ? AGENT_EXECUTION_ERROR.TOOL_FAILURE : 0,
    usage: report.usage,
    trace: report.trace,
    provenance: report.provenance,
    data_plane: report.data_plane,
  };
}
