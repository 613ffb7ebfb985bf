import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, fromStruct, toStruct } from '../../libs/contracts/src';
import { timestampToMs, toTimestamp } from '../../libs/contracts/src/internal';

type MethodDefinition = protoLoader.MethodDefinition<Record<string, unknown>, Record<string, unknown>>;
type Decoded = Record<string, any>;

const definition = protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS });
const agentService = definition['s2sp.v1.AgentService'] as unknown as Record<string, MethodDefinition>;
const toolService = definition['s2sp.v1.ToolService'] as unknown as Record<string, MethodDefinition>;

function roundTripRequest(method: MethodDefinition, message: Record<string, unknown>): Decoded {
  const bytes = method.requestSerialize(message);
  assert.ok(Buffer.isBuffer(bytes) && bytes.length > 0);
  return method.requestDeserialize(bytes);
}

describe('protobuf encode/decode round trip', () => {
  const deadlineMs = Date.UTC(2025, 9, 14, 12, 0, 0, 250);
  const task = {
    task_id: '01929c1e-7d3f-7000-8000-000000000001',
    agent_type: 's2sp-pipeline',
    objective: { natural_language: 'Chart the wind alerts in Alaska', success_criteria: ['chart rendered'] },
    constraints: { max_steps: 12, token_budget: 8192, cost_budget_microdollars: '9007199254740993' },
    trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7', trace_flags: 1 },
    deadline: toTimestamp(deadlineMs),
    plan: [
      {
        step_id: 'alerts',
        resource_call: {
          tool: 'get_alerts',
          server: 'weather',
          arguments: toStruct({ area: 'AK' }),
          abstract_domains: ['event', 'severity'],
          mode: 'DATA_PLANE_MODE_ASYNC',
        },
      },
      {
        step_id: 'wind',
        depends_on: ['alerts'],
        filter: {
          input_step_id: 'alerts',
          predicate: toStruct({ field: 'event', op: 'in', value: ['Wind Advisory', 'High Wind Warning'] }),
        },
      },
      {
        step_id: 'chart',
        depends_on: ['wind'],
        consumer_call: {
          tool: 'draw_chart',
          server: 'stats',
          input_step_id: 'wind',
          arguments: toStruct({ chart: 'bar', options: { stacked: false, limit: null } }),
          column_mapping: { event: 'category', severity: 'series' },
        },
      },
    ],
  };

  test('an AgentTask with a plan survives SubmitTaskRequest serialization', () => {
    const decoded = roundTripRequest(agentService.SubmitTask, { task }).task as Decoded;
    assert.equal(decoded.task_id, task.task_id);
    assert.equal(decoded.objective.natural_language, 'Chart the wind alerts in Alaska');
    assert.deepEqual(decoded.objective.success_criteria, ['chart rendered']);
    assert.equal(decoded.constraints.cost_budget_microdollars, '9007199254740993', 'uint64 kept exact as a string');
    assert.equal(decoded.constraints.max_recursion_depth, 0, 'defaults: true fills unset scalars');
    assert.equal(timestampToMs(decoded.deadline), deadlineMs);
    assert.equal(decoded.trace.trace_flags, 1);

    assert.deepEqual(
      decoded.plan.map((step: Decoded) => step.kind),
      ['resource_call', 'filter', 'consumer_call'],
      'oneofs: true names the member that is set',
    );
    const [alerts, wind, chart] = decoded.plan as Decoded[];
    assert.equal(alerts.resource_call.mode, 'DATA_PLANE_MODE_ASYNC');
    assert.deepEqual(alerts.resource_call.abstract_domains, ['event', 'severity']);
    assert.deepEqual(fromStruct(alerts.resource_call.arguments), { area: 'AK' });
    assert.deepEqual(fromStruct(wind.filter.predicate), {
      field: 'event',
      op: 'in',
      value: ['Wind Advisory', 'High Wind Warning'],
    });
    assert.deepEqual(wind.depends_on, ['alerts']);
    assert.deepEqual(chart.consumer_call.column_mapping, { event: 'category', severity: 'series' });
    assert.deepEqual(fromStruct(chart.consumer_call.arguments), {
      chart: 'bar',
      options: { stacked: false, limit: null },
    });
  });

  test('a decoded message re-encodes to the same content', () => {
    // Bytes may differ: protobufjs writes the explicit defaults that `defaults: true` filled in.
    const once = agentService.SubmitTask.requestDeserialize(agentService.SubmitTask.requestSerialize({ task }));
    const twice = agentService.SubmitTask.requestDeserialize(agentService.SubmitTask.requestSerialize(once));
    assert.deepEqual(twice, once);
  });

  test('a ToolInvocationResponse with usage, data-plane ref and Struct output round-trips', () => {
    const response = {
      invocation_id: 'inv-1',
      status: 'TOOL_RESULT_STATUS_SUCCESS',
      output: toStruct({
        total_rows: 2,
        abstract: [
          { _row_id: 0, event: 'Wind Advisory' },
          { _row_id: 1, event: 'Flood Watch' },
        ],
      }),
      usage: { tokens_in_context: '42', tokens_kept_out: '1234', tool_calls: 1 },
      data_plane: {
        mode: 'DATA_PLANE_MODE_ASYNC',
        resource_url: 'http://127.0.0.1:4100/s2sp/data/abc',
        abstract_domains: ['event'],
        body_domains: ['description', 'instruction'],
        total_rows: '2',
      },
    };
    const bytes = toolService.InvokeTool.responseSerialize(response);
    const decoded = toolService.InvokeTool.responseDeserialize(bytes) as Decoded;
    assert.equal(decoded.status, 'TOOL_RESULT_STATUS_SUCCESS');
    assert.equal(decoded.usage.tokens_in_context, '42');
    assert.equal(decoded.usage.tokens_kept_out, '1234');
    assert.equal(decoded.data_plane.total_rows, '2');
    assert.deepEqual(decoded.data_plane.body_domains, ['description', 'instruction']);
    assert.deepEqual(fromStruct(decoded.output), {
      total_rows: 2,
      abstract: [
        { _row_id: 0, event: 'Wind Advisory' },
        { _row_id: 1, event: 'Flood Watch' },
      ],
    });
    assert.equal(decoded.provenance, null, 'unset message fields decode as null');
  });

  test('enums travel by name; an unknown name degrades to the _UNSPECIFIED zero value', () => {
    assert.equal(
      roundTripRequest(agentService.CancelTask, { task_id: 't', mode: 'CANCEL_MODE_HARD' }).mode,
      'CANCEL_MODE_HARD',
    );
    assert.equal(roundTripRequest(agentService.CancelTask, { task_id: 't', mode: 2 }).mode, 'CANCEL_MODE_HARD');
    assert.equal(
      roundTripRequest(agentService.CancelTask, { task_id: 't', mode: 'CANCEL_MODE_NOPE' }).mode,
      'CANCEL_MODE_UNSPECIFIED',
    );
  });
});
