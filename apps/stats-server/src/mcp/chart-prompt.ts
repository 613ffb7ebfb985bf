import type { GetPromptResult } from '@modelcontextprotocol/server';

export const CHART_BREAKDOWN_PROMPT = 'chart_breakdown';

/** Columns of tabular S2SP results that charts are usually grouped by (completion suggestions for `group_by`). */
export const COMMON_GROUP_BY_COLUMNS = [
  'event',
  'severity',
  'urgency',
  'certainty',
  'status',
  'category',
  'senderName',
  'messageType',
] as const;

/**
 * The prompt's text: have the resource tool split its rows with `group_by` among
 * the abstract columns, then chart them by passing the resource_url on.
 */
export function chartBreakdownPrompt(source: string, groupBy: string): GetPromptResult {
  return {
    description: `Chart ${source} by ${groupBy}`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Draw a bar chart of ${source} counted by "${groupBy}". ` +
            `Call the tool that returns them with abstract_domains including "${groupBy}" (the other columns stay on the data plane), ` +
            `then call draw_chart with its abstract rows, its resource_url and group_by "${groupBy}", and describe the chart in one sentence.`,
        },
      },
    ],
  };
}
