import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { fromStruct } from '../../libs/contracts/src';
import { findProtoEncoding, rpcError, useGatewayWithFakeAgents } from '../support/gateway-harness';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** The plan of the README's example: alerts -> wind filter -> chart. */
function examplePlan(): unknown[] {
  return [
    {
      step_id: 'alerts',
      resource_call: {
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'CA' },
        abstract_domains: ['event', 'severity'],
        mode: 'async',
      },
    },
    {
      step_id: 'wind',
      filter: { input_step_id: 'alerts', predicate: { field: 'event', op: 'contains', value: 'Wind' } },
    },
    {
      step_id: 'chart',
      depends_on: ['wind'],
      consumer_call: {
        server: 'stats',
        tool: 'draw_chart',
        arguments: { group_by: 'event' },
        input_step_id: 'wind',
        column_mapping: {},
      },
    },
  ];
}

const violationPaths = (error: { data: { fields: Array<{ path: string }> } }): string[] =>
  error.data.fields.map((field) => field.path).sort();

describe('gateway agent.submitTask / getTask / cancelTask', () => {
  const suite = useGatewayWithFakeAgents();

  test('agent.submitTask transcodes the plan to AgentTask and the answer to plain JSON', async () => {
    const result = await suite.gw.client.request(
      'agent.submitTask',
      {
        objective: 'Chart the wind alerts in California',
        plan: examplePlan(),
        constraints: {
          max_steps: 12,
          token_budget: 8192,
          cost_budget_microdollars: 5_000_000,
          permitted_tools: ['get_alerts'],
        },
      },
      { traceparent: TRACEPARENT, tracestate: 'vendor=abc' },
    );
    const [call] = suite.fake.callsTo('SubmitTask');
    const task = call.request.task;
    assert.match(task.task_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(result, {
      task_id: task.task_id,
      status: 'accepted',
      estimated_completion_ms: 4500,
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    assert.equal(task.agent_type, 's2sp-pipeline');
    assert.equal(task.objective.natural_language, 'Chart the wind alerts in California');
    assert.equal(task.schema_version, 1);
    assert.equal(task.idempotency_key, '');
    assert.equal(task.constraints.max_steps, 12);
    assert.equal(task.constraints.token_budget, 8192);
    assert.equal(task.constraints.cost_budget_microdollars, '5000000');
    assert.deepEqual(task.constraints.permitted_tools, ['get_alerts']);
    assert.deepEqual(task.auth.subject, 'test-user');
    assert.equal(task.trace.trace_id, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(task.trace.span_id, '00f067aa0ba902b7');
    assert.equal(task.trace.trace_flags, 1);
    assert.equal(task.trace.trace_state, 'vendor=abc');

    const [alerts, wind, chart] = task.plan;
    assert.equal(alerts.step_id, 'alerts');
    assert.equal(alerts.kind, 'resource_call');
    assert.equal(alerts.resource_call.server, 'weather');
    assert.equal(alerts.resource_call.tool, 'get_alerts');
    assert.deepEqual(fromStruct(alerts.resource_call.arguments), { area: 'CA' });
    assert.deepEqual(alerts.resource_call.abstract_domains, ['event', 'severity']);
    assert.equal(alerts.resource_call.mode, 'DATA_PLANE_MODE_ASYNC');
    assert.equal(wind.kind, 'filter');
    assert.equal(wind.filter.input_step_id, 'alerts');
    assert.deepEqual(fromStruct(wind.filter.predicate), { field: 'event', op: 'contains', value: 'Wind' });
    assert.equal(chart.kind, 'consumer_call');
    assert.deepEqual(chart.depends_on, ['wind']);
    assert.equal(chart.consumer_call.input_step_id, 'wind');
    assert.deepEqual(fromStruct(chart.consumer_call.arguments), { group_by: 'event' });
    assert.deepEqual(chart.consumer_call.column_mapping, {});
  });

  test('a client-chosen task_id, idempotency_key and sync mode reach the agents', async () => {
    const taskId = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
    const plan = examplePlan();
    (plan[0] as { resource_call: { mode: string } }).resource_call.mode = 'sync';
    const result = await suite.gw.client.request('agent.submitTask', {
      objective: 'x',
      plan,
      task_id: taskId,
      idempotency_key: 'k-1',
    });
    assert.equal(result.task_id, taskId);
    assert.match(
      result.trace_id,
      /^[0-9a-f]{32}$/,
      'no traceparent sent: the trace the gateway started for the request',
    );
    const task = suite.fake.callsTo('SubmitTask')[0].request.task;
    assert.equal(task.task_id, taskId);
    assert.equal(task.idempotency_key, 'k-1');
    assert.equal(task.plan[0].resource_call.mode, 'DATA_PLANE_MODE_SYNC');
  });

  test("agent.submitTask with an empty plan goes to the agents, whose planner decides, with the caller's server scopes", async () => {
    await suite.gw.client.request('agent.submitTask', { objective: 'Chart the wind alerts in California', plan: [] });
    const [call] = suite.fake.callsTo('SubmitTask');
    assert.deepEqual(call.request.task.plan, []);
    assert.equal(call.request.task.objective.natural_language, 'Chart the wind alerts in California');
    const scopes = String(decodeJwt(call.metadata.authorization.replace(/^Bearer /, '')).scope).split(' ');
    assert.ok(
      scopes.includes('tasks:submit') && scopes.includes('weather:read') && scopes.includes('stats:chart'),
      scopes.join(' '),
    );
    assert.ok(!scopes.includes('tasks:cancel'), 'the platform scopes other than tasks:submit are narrowed away');
  });

  test('nested plan validation errors name the field', async () => {
    const plan = examplePlan();
    (plan[1] as { filter: { predicate: unknown } }).filter.predicate = { field: 'event', op: 'like', value: 'Wind' };
    const error = await rpcError(suite.gw.client.request('agent.submitTask', { objective: 'x', plan }));
    assert.equal(error.code, -32602);
    assert.deepEqual(violationPaths(error), ['plan[1].filter.predicate']);
    assert.match(error.data.fields[0].constraints.isPredicate, /\$\.op: must be one of eq, ne, in, contains/);
    assert.equal(suite.fake.callsTo('SubmitTask').length, 0);
  });

  test('every nested field is checked, with no implicit conversion', async () => {
    const plan = examplePlan() as any[];
    plan[0].resource_call.mode = 'ASYNC';
    plan[0].resource_call.abstract_domains = 'event,severity';
    plan[0].resource_call.arguments = 'area=CA';
    plan[1].filter.input_step_id = 'not a step id!';
    plan[2].consumer_call.column_mapping = { event: 7 };
    plan[2].consumer_call.tool = 42;
    plan[2].extra = true;
    const error = await rpcError(
      suite.gw.client.request('agent.submitTask', {
        objective: 'x',
        plan,
        constraints: { max_steps: '12' },
        task_id: 'task-1',
      }),
    );
    assert.equal(error.code, -32602);
    assert.deepEqual(violationPaths(error), [
      'constraints.max_steps',
      'plan[0].resource_call.abstract_domains',
      'plan[0].resource_call.arguments',
      'plan[0].resource_call.mode',
      'plan[1].filter.input_step_id',
      'plan[2].consumer_call.column_mapping',
      'plan[2].consumer_call.tool',
      'plan[2].extra',
      'task_id',
    ]);
  });

  test('a plan step needs exactly one kind', async () => {
    const none = await rpcError(
      suite.gw.client.request('agent.submitTask', { objective: 'x', plan: [{ step_id: 'a' }] }),
    );
    assert.equal(none.code, -32602);
    assert.deepEqual(violationPaths(none), ['plan[0].resource_call']);
    assert.match(
      none.data.fields[0].constraints.exactlyOneStepKind,
      /exactly one of resource_call, filter, consumer_call; it has none/,
    );

    const [resource, filter] = examplePlan() as any[];
    const two = await rpcError(
      suite.gw.client.request('agent.submitTask', {
        objective: 'x',
        plan: [{ step_id: 'a', resource_call: resource.resource_call, filter: filter.filter }],
      }),
    );
    assert.deepEqual(violationPaths(two), ['plan[0].filter', 'plan[0].resource_call']);
    assert.match(two.data.fields[0].constraints.exactlyOneStepKind, /it has resource_call and filter/);

    const missing = await rpcError(suite.gw.client.request('agent.submitTask', { plan: examplePlan() }));
    assert.deepEqual(violationPaths(missing), ['objective']);
    assert.equal(suite.fake.callsTo('SubmitTask').length, 0);
  });

  test('agent.getTask returns the snapshot as plain JSON: enums lower-case, ISO times, Structs as JSON, numbers', async () => {
    const taskId = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
    const snapshot = await suite.gw.client.request('agent.getTask', { task_id: taskId });
    assert.equal(findProtoEncoding(snapshot), undefined);
    assert.equal(
      JSON.stringify(snapshot).includes('SECRET-CAPABILITY'),
      false,
      'resource_url must not leave the platform',
    );
    assert.deepEqual(snapshot, {
      task_id: taskId,
      status: 'succeeded',
      steps: [
        {
          step_number: 1,
          plan_step_id: 'alerts',
          type: 'retrieve',
          outcome: 'success',
          summary: '14 alerts, 2 columns in context',
          payload: { total_rows: 14, abstract: [{ _row_id: 0, event: 'Wind Advisory', severity: null }] },
          tool_calls: [
            {
              invocation_id: 'inv-1',
              tool_name: 'get_alerts',
              server: 'weather',
              status: 'success',
              usage: usage({ tokens_in_context: 120, tokens_kept_out: 2300, tool_calls: 1 }),
              data_plane: {
                mode: 'async',
                expires_at: '2026-11-22T12:10:00.000Z',
                abstract_domains: ['event', 'severity'],
                body_domains: ['description'],
                total_rows: 14,
              },
              started_at: '2026-11-22T12:00:00.000Z',
              finished_at: '2026-11-22T12:00:00.250Z',
            },
          ],
          usage: usage({ tokens_in_context: 120, tokens_kept_out: 2300, tool_calls: 1, wall_time_ms: 250 }),
          started_at: '2026-11-22T12:00:00.000Z',
          finished_at: '2026-11-22T12:00:00.250Z',
        },
        {
          step_number: 2,
          plan_step_id: 'chart',
          type: 'act',
          outcome: 'failure',
          tool_calls: [],
          usage: usage({}),
          error: {
            code: 1002,
            message: 'draw_chart failed',
            recovery_hint: 'REVISE_TASK',
            details: { server: 'stats' },
          },
        },
      ],
      usage: usage({
        tokens_in_context: 123456789012,
        tokens_kept_out: 2300,
        rows_in_context: 5,
        cost_microdollars: 42,
      }),
      result: { chart: { bars: 2, labels: ['Wind Advisory', 'High Wind Warning'] }, rows: 5, ok: true, note: null },
      created_at: '2026-11-22T11:59:59.000Z',
      updated_at: '2026-11-22T12:00:00.250Z',
      completed_at: '2026-11-22T12:00:00.250Z',
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    });
    assert.deepEqual(suite.fake.callsTo('GetTask')[0].request, { task_id: taskId });
  });

  test('agent.getTask: task_id must be a UUID; an unknown task is -32602 from NOT_FOUND', async () => {
    const invalid = await rpcError(suite.gw.client.request('agent.getTask', { task_id: 'nope' }));
    assert.equal(invalid.code, -32602);
    assert.deepEqual(violationPaths(invalid), ['task_id']);
    suite.fake.fail('GetTask', GrpcStatus.NOT_FOUND, 'no task 0192f3a4-5b6c-7d8e-9f01-23456789abcd');
    const unknown = await rpcError(
      suite.gw.client.request('agent.getTask', { task_id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd' }),
    );
    assert.equal(unknown.code, -32602);
    assert.equal(unknown.data.reason, 'no task 0192f3a4-5b6c-7d8e-9f01-23456789abcd');
  });

  test('agent.cancelTask maps mode to CancelMode and the status back', async () => {
    const taskId = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
    assert.deepEqual(
      await suite.gw.client.request('agent.cancelTask', { task_id: taskId, mode: 'soft', reason: 'replanned' }),
      {
        task_id: taskId,
        status: 'cancelling',
      },
    );
    assert.deepEqual(await suite.gw.client.request('agent.cancelTask', { task_id: taskId, mode: 'hard' }), {
      task_id: taskId,
      status: 'cancelled',
    });
    assert.deepEqual(
      suite.fake.callsTo('CancelTask').map((call) => call.request),
      [
        { task_id: taskId, mode: 'CANCEL_MODE_SOFT', reason: 'replanned' },
        { task_id: taskId, mode: 'CANCEL_MODE_HARD', reason: '' },
      ],
    );
    const invalid = await rpcError(suite.gw.client.request('agent.cancelTask', { task_id: taskId, mode: 'HARD' }));
    assert.deepEqual(violationPaths(invalid), ['mode']);
    const missing = await rpcError(suite.gw.client.request('agent.cancelTask', { task_id: taskId }));
    assert.deepEqual(violationPaths(missing), ['mode']);
  });

  test('an agent precondition failure carries the agent code, message and trace id from the trailers', async () => {
    suite.fake.fail('CancelTask', GrpcStatus.FAILED_PRECONDITION, 'task already finished', {
      'x-s2sp-error-code': '1004',
      'x-trace-id': 'abc123trace',
    });
    const error = await rpcError(
      suite.gw.client.request('agent.cancelTask', { task_id: '0192f3a4-5b6c-7d8e-9f01-23456789abcd', mode: 'soft' }),
    );
    assert.deepEqual(error, {
      code: 1004,
      message: 'task already finished',
      data: { trace_id: 'abc123trace', recovery_hint: 'REFRESH_STATE_AND_RETRY' },
    });
  });
});

function usage(values: Record<string, number>): Record<string, number> {
  return {
    tokens_in_context: 0,
    tokens_kept_out: 0,
    model_input_tokens: 0,
    model_output_tokens: 0,
    tool_calls: 0,
    wall_time_ms: 0,
    data_plane_bytes: 0,
    rows_in_context: 0,
    rows_kept_out: 0,
    cost_microdollars: 0,
    ...values,
  };
}
