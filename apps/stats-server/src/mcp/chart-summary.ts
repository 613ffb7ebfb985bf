import { inputRequired, inputResponse, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { McpContext } from '@rekog/mcp-nest';
import { mcpClientCapabilities, mcpServerContext, S2spToolError } from '@s2sp/core';

/** Injection token of the {@link ChartSummaryOptions}. */
export const CHART_SUMMARY_OPTIONS = Symbol('STATS_CHART_SUMMARY_OPTIONS');

export interface ChartSummaryOptions {
  /** `maxTokens` of the sampling request. */
  maxTokens: number;
}

/** The key of the summary request in `inputRequests` / `inputResponses`. */
const SUMMARY_REQUEST = 'chart_summary';

/**
 * The question for the calling client's model (MCP `sampling/createMessage`): a short summary
 * of a chart, given the chart's own text. Returned as an input request, so one handler serves
 * both protocol eras: a 2026-07-28 client answers it and calls again; on a 2025-era session the
 * SDK sends the request to the client and calls the tool again with the answer.
 */
export function chartSummaryRequest(
  context: McpContext,
  chartText: string,
  options: ChartSummaryOptions,
  requestState: string,
): InputRequiredResult {
  if (mcpClientCapabilities(context)?.sampling === undefined) {
    throw new S2spToolError('summarize needs a client that declares the MCP sampling capability; this one does not');
  }
  return inputRequired({
    inputRequests: {
      [SUMMARY_REQUEST]: inputRequired.createMessage({
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
      }),
    },
    requestState,
  });
}

/** The client model's summary from this round's answers, or undefined when the call has none yet. */
export function chartSummaryAnswer(context: McpContext): string | undefined {
  const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, SUMMARY_REQUEST);
  if (answer.kind === 'missing') return undefined;
  if (answer.kind !== 'sampling') throw new S2spToolError('The client answered the summary request with no completion');
  const content = answer.result.content;
  if (Array.isArray(content) || content.type !== 'text' || typeof content.text !== 'string') {
    throw new S2spToolError('The client answered the summary request without text');
  }
  return content.text;
}
