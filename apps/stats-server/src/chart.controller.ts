import { Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController } from '@rekog/mcp-nest';
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import {
  consumerState,
  sealConsumerState,
  S2spConsumerTool,
  S2spToolError,
  type S2spConsumerPayload,
  type ToolResult,
} from '@s2sp/core';
import { z } from 'zod';
import { countBy, renderBarChartSvg } from './chart/bar-chart';
import {
  CHART_SUMMARY_OPTIONS,
  chartSummaryAnswer,
  chartSummaryRequest,
  type ChartSummaryOptions,
} from './mcp/chart-summary';

/** Scope a caller needs to draw charts. */
export const STATS_CHART_SCOPE = 'stats:chart';

const drawChartParameters = z.object({
  group_by: z.string().min(1).max(256).optional().describe('Column to count rows by. Default "event".'),
  title: z.string().max(200).optional().describe('Chart title.'),
  summarize: z
    .boolean()
    .optional()
    .describe("Also ask the calling client's model (MCP sampling) to summarise the chart."),
  confirm: z
    .boolean()
    .optional()
    .describe('Ask the user to confirm (MCP elicitation) before the rows are fetched and charted.'),
});

type DrawChartPayload = S2spConsumerPayload<z.infer<typeof drawChartParameters>>;

/** A drawn chart: what the summary round carries over (its rows are fetched only once). */
interface DrawnChart {
  svgBase64: string;
  text: string;
}

@McpController()
export class ChartController {
  constructor(@Inject(CHART_SUMMARY_OPTIONS) private readonly summaryOptions: ChartSummaryOptions) {}

  @S2spConsumerTool({
    name: 'draw_chart',
    description: 'Draws an SVG bar chart counting the given rows by one column (default "event").',
    parameters: drawChartParameters,
    scopes: [STATS_CHART_SCOPE],
    // Only draws: agents that gate writes behind an approval can call it freely.
    annotations: { readOnlyHint: true },
    // On request, the user says yes before anything is fetched: declining leaves the resource unclaimed.
    confirm: {
      when: (args) => args['confirm'] === true,
      message: (args, rows) =>
        `Chart ${rows} row${rows === 1 ? '' : 's'} by ${typeof args['group_by'] === 'string' ? args['group_by'] : 'event'}?`,
    },
  })
  async drawChart(
    @Payload() payload: DrawChartPayload,
    @Ctx() context: McpContext,
  ): Promise<ToolResult | InputRequiredResult> {
    const drawn = consumerState<DrawnChart>(context);
    const chart = drawn ?? (await drawChart(payload));
    if (!payload.summarize) return chartResult(chart);
    const summary = chartSummaryAnswer(context);
    if (summary !== undefined) return chartResult(chart, summary);
    if (drawn) throw new S2spToolError('The client did not answer the summary request');
    return chartSummaryRequest(context, chart.text, this.summaryOptions, await sealConsumerState(context, chart));
  }
}

async function drawChart(payload: DrawChartPayload): Promise<DrawnChart> {
  const column = payload.group_by ?? 'event';
  const { rows } = payload;
  if (rows.length > 0 && !rows.some((row) => Object.prototype.hasOwnProperty.call(row, column))) {
    const available = [...new Set(rows.flatMap((row) => Object.keys(row)))].join(', ');
    throw new S2spToolError(`No row has a column "${column}" to group by. Columns: ${available}.`);
  }
  const counts = countBy(rows, column);
  const title = payload.title ?? `Rows by ${column}`;
  const svg = await renderBarChartSvg(counts, { title, xLabel: column });
  const text =
    `Charted ${rows.length} row${rows.length === 1 ? '' : 's'} by ${column} in ${counts.length} bar${counts.length === 1 ? '' : 's'}: ` +
    counts.map((entry) => `${entry.value} ${entry.count}`).join(', ') +
    '.';
  return { svgBase64: Buffer.from(svg, 'utf8').toString('base64'), text };
}

function chartResult(chart: DrawnChart, modelSummary?: string): ToolResult {
  return {
    content: [
      { type: 'image', data: chart.svgBase64, mimeType: 'image/svg+xml' },
      { type: 'text', text: chart.text },
      ...(modelSummary === undefined ? [] : [{ type: 'text' as const, text: `Summary: ${modelSummary}` }]),
    ],
  };
}
