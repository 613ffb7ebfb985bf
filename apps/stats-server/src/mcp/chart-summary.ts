import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/server';
import type { McpContext } from '@rekog/mcp-nest';
import { S2spToolError } from '@s2sp/core';

/** Injection token of the {@link ChartSummaryOptions}. */
export const CHART_SUMMARY_OPTIONS = Symbol('STATS_CHART_SUMMARY_OPTIONS');

export interface ChartSummaryOptions {
  /** `maxTokens` of the sampling request. */
  maxTokens: number;
}

/** The part of the SDK's request context that sends a request back to the client (2025-era sessions only). */
interface SamplingCapableContext {
  mcpReq?: {
    id: string | number;
    signal?: AbortSignal;
    requestSampling?: (
      params: CreateMessageRequest['params'],
      options: { relatedRequestId: string | number; signal?: AbortSignal },
    ) => Promise<CreateMessageResult>;
  };
}

/** Where @rekog/mcp-nest keeps the SDK's request context among the McpContext arguments. */
const SDK_CONTEXT_INDEX = 4;

/**
 * Asks the calling client's model (MCP `sampling/createMessage`) for a short
 * summary of a chart, given the chart's own text. The client decides whether to
 * answer; a refusal comes back as a tool error carrying its message.
 */
export async function requestChartSummary(
  context: McpContext,
  chartText: string,
  options: ChartSummaryOptions,
): Promise<string> {
  const sdk = context.getArgByIndex(SDK_CONTEXT_INDEX) as SamplingCapableContext | undefined;
  const request = sdk?.mcpReq;
  const capabilities = context.getClientCapabilities() ?? context.mcpServer.server.getClientCapabilities();
  if (!request?.requestSampling || (capabilities !== undefined && !capabilities.sampling)) {
    throw new S2spToolError('summarize needs a client that declares the MCP sampling capability; this one does not');
  }
  let result: CreateMessageResult;
  try {
    // Related to the tool call: the request travels on that call's own response stream (and is cancelled with it),
    // so the client knows which of its calls it serves.
    result = await request.requestSampling(
      {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: `Summarise this chart for a reader in one or two sentences.\n\n${chartText}`,
            },
          },
        ],
        systemPrompt: 'You summarise bar charts of tabular data. Answer with the summary only.',
        maxTokens: options.maxTokens,
        includeContext: 'none',
      },
      { relatedRequestId: request.id, signal: request.signal },
    );
  } catch (error) {
    throw new S2spToolError(
      `The client did not summarise the chart: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const content = result.content;
  if (Array.isArray(content) || content.type !== 'text' || typeof content.text !== 'string') {
    throw new S2spToolError('The client answered the summary request without text');
  }
  return content.text;
}
