/** Plans the Tasks view offers to start from; the first is the README's quick-start task. */
export interface PlanTemplate {
  id: string;
  label: string;
  objective: string;
  plan: unknown[];
}

export const PLAN_TEMPLATES: readonly PlanTemplate[] = [
  {
    id: 'wind-chart',
    label: 'Chart the wind alerts in CA (the README task)',
    objective: 'chart the wind alerts in CA',
    plan: [
      {
        step_id: 'alerts',
        resource_call: {
          server: 'weather',
          tool: 'get_alerts',
          arguments: { area: 'CA' },
          abstract_domains: ['event'],
          mode: 'async',
        },
      },
      {
        step_id: 'wind',
        filter: { input_step_id: 'alerts', predicate: { field: 'event', op: 'contains', value: 'Wind' } },
      },
      {
        step_id: 'chart',
        consumer_call: { server: 'stats', tool: 'draw_chart', arguments: { group_by: 'event' }, input_step_id: 'wind' },
      },
    ],
  },
  {
    id: 'severity-chart',
    label: 'Chart every CA alert by severity',
    objective: 'chart the CA alerts by severity',
    plan: [
      {
        step_id: 'alerts',
        resource_call: {
          server: 'weather',
          tool: 'get_alerts',
          arguments: { area: 'CA' },
          abstract_domains: ['severity'],
          mode: 'async',
        },
      },
      {
        step_id: 'chart',
        consumer_call: {
          server: 'stats',
          tool: 'draw_chart',
          arguments: { group_by: 'severity' },
          input_step_id: 'alerts',
        },
      },
    ],
  },
];
