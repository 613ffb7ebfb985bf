import type { GetPromptResult } from '@modelcontextprotocol/server';

export const TRIAGE_ALERTS_PROMPT = 'triage_alerts';

/** Columns a triage may focus on besides `event` (completion suggestions for `focus`). */
export const TRIAGE_FOCUS_COLUMNS = [
  'severity',
  'urgency',
  'certainty',
  'status',
  'areaDesc',
  'onset',
  'expires',
] as const;

/**
 * The triage prompt's text: ask for the area's alerts through get_alerts with
 * few abstract columns (the rest stays on the data plane), then rank them.
 */
export function triageAlertsPrompt(area: string, focus: string | undefined): GetPromptResult {
  const columns = ['event', ...(focus ? [focus] : ['severity'])].join(',');
  return {
    description: `Triage the active weather alerts of ${area}`,
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            `Triage the active National Weather Service alerts for ${area}. ` +
            `Call get_alerts with area "${area}" and abstract_domains "${columns}" (the other fields stay on the data plane), ` +
            `then list the alerts from most to least pressing by ${focus ?? 'severity'}, one line each, ` +
            'and say which ones need action now. If a chart helps, pass the resource_url to draw_chart.',
        },
      },
    ],
  };
}
