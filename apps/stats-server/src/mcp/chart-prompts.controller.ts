import { UseFilters } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type GetPromptResult } from '@modelcontextprotocol/server';
import { McpController, Prompt } from '@rekog/mcp-nest';
import { McpProtocolErrorFilter, promptArguments } from '@s2sp/core';
import { z } from 'zod';
import { CHART_BREAKDOWN_PROMPT, chartBreakdownPrompt } from './chart-prompt';

const chartArguments = z.object({
  source: z.string().min(1).max(200).describe('What to chart, e.g. "the weather alerts of CA".'),
  group_by: z.string().min(1).max(256).optional().describe('Column to count rows by. Default "event".'),
});

/** The stats server's prompt surface. */
@McpController()
// Invalid arguments and unknown resources reach the client as the protocol errors they are.
@UseFilters(McpProtocolErrorFilter)
export class ChartPromptsController {
  @Prompt({
    name: CHART_BREAKDOWN_PROMPT,
    description: 'Chart rows from an S2SP resource tool, counted by one column.',
    parameters: chartArguments,
  })
  chartBreakdown(@Payload() args: unknown): GetPromptResult {
    const parsed = promptArguments(chartArguments, args, CHART_BREAKDOWN_PROMPT);
    return chartBreakdownPrompt(parsed.source, parsed.group_by ?? 'event');
  }
}
