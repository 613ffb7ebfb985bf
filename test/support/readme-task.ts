// The README's quick-start task as JSON-RPC params: get_alerts (async) → filter → draw_chart,
// whose fetch consumes the resource.
export const README_PLAN = [
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
];

export const README_OBJECTIVE = 'chart the wind alerts in CA';
