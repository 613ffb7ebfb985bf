import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { fromStruct, toStruct } from '../../libs/contracts/src';
import { WEATHER_TOOL_INPUT_SCHEMA, WEATHER_TOOL_OUTPUT_SCHEMA } from '../support/fake-agents';
import { findProtoEncoding, rpcError, useGatewayWithFakeAgents } from '../support/gateway-harness';

describe('gateway tools.list / tools.call', () => {
  const suite = useGatewayWithFakeAgents();

  test('tools.list transcodes ToolDescriptors to MCP-style tools with lower-case enums', async () => {
    const result = await suite.gw.client.request('tools.list', {});
    assert.equal(findProtoEncoding(result), undefined);
    assert.equal(result.nextCursor, undefined);
    // These fake agents predate contract 2.1.0 (no s2sp.v2 ListSurfaces): the tools still list, without the other surfaces.
    assert.deepEqual(Object.keys(result).sort(), ['tools']);
    assert.deepEqual(result.tools[0], {
      name: 'get_alerts',
      server: 'weather',
      title: 'Weather alerts',
      description: 'Active weather alerts for a US state.',
      inputSchema: WEATHER_TOOL_INPUT_SCHEMA,
      outputSchema: WEATHER_TOOL_OUTPUT_SCHEMA,
      kind: 's2sp_resource',
      mutationClass: 'read_only',
      requiredScopes: ['weather:read'],
      version: '1',
    });
    // A tool that declares no output schema has no outputSchema member (not {}), one without a version no version.
    assert.deepEqual(result.tools[1], {
      name: 'draw_chart',
      server: 'stats',
      description: 'Bar chart of the rows by one column.',
      inputSchema: { type: 'object', properties: { group_by: { type: 'string' } } },
      kind: 's2sp_consumer',
      mutationClass: 'read_only',
      requiredScopes: [],
    });
    assert.equal(result.tools[2].kind, 'standard');
    assert.equal(result.tools[2].mutationClass, 'idempotent_write');
  });

  test('tools.list passes cursor, page_size and server through, and returns nextCursor', async () => {
    const first = await suite.gw.client.request('tools.list', { page_size: 2 });
    assert.deepEqual(
      first.tools.map((tool: { name: string }) => tool.name),
      ['get_alerts', 'draw_chart'],
    );
    assert.equal(first.nextCursor, '2');
    const second = await suite.gw.client.request('tools.list', { page_size: 2, cursor: first.nextCursor });
    assert.deepEqual(
      second.tools.map((tool: { name: string }) => tool.name),
      ['echo'],
    );
    assert.equal('nextCursor' in second, false);
    const stats = await suite.gw.client.request('tools.list', { server: 'stats' });
    assert.deepEqual(
      stats.tools.map((tool: { name: string }) => tool.name),
      ['draw_chart', 'echo'],
    );
    assert.deepEqual(
      suite.fake.callsTo('ListTools').map((call) => call.request),
      [
        { cursor: '', page_size: 2, server: '' },
        { cursor: '2', page_size: 2, server: '' },
        { cursor: '', page_size: 0, server: 'stats' },
      ],
    );
  });

  test('tools.list params are typed strictly: no string -> number coercion, no unknown members', async () => {
    const error = await rpcError(suite.gw.client.request('tools.list', { page_size: '2' }));
    assert.equal(error.code, -32602);
    assert.deepEqual(
      error.data.fields.map((field: { path: string }) => field.path),
      ['page_size'],
    );
    const unknown = await rpcError(suite.gw.client.request('tools.list', { pageSize: 2 }));
    assert.equal(unknown.code, -32602);
    assert.equal(unknown.data.fields[0].path, 'pageSize');
    assert.equal(suite.fake.callsTo('ListTools').length, 0);
  });

  test('tools.call sends the arguments as a Struct and returns the MCP result; nested JSON survives the round trip', async () => {
    const args = {
      area: 'CA',
      nested: { list: [1, 2.5, -3, { deep: [null, true, false, ''] }], empty: {}, emptyList: [] },
      unicode: 'Ünïcødé ✓ 雨',
      big: 9007199254740991,
      negativeZero: 0,
    };
    const result = await suite.gw.client.request('tools.call', { name: 'echo', server: 'stats', arguments: args });
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'called echo' }],
      structuredContent: { tool: 'echo', server: 'stats', arguments: args },
    });
    assert.equal(findProtoEncoding(result), undefined);

    const [call] = suite.fake.callsTo('InvokeTool');
    assert.equal(call.request.tool_name, 'echo');
    assert.equal(call.request.server, 'stats');
    assert.deepEqual(fromStruct(call.request.input_params), args);
    assert.match(call.request.invocation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(call.request.caller_auth.subject, 'test-user');
    assert.ok(call.deadlineMs !== undefined && call.deadlineMs > 0, 'the deadline travels as the gRPC deadline');
    assert.equal(call.request.deadline, null, 'and only there: not also as the request field');
  });

  test('tools.call without arguments sends an empty Struct; server omitted resolves by name', async () => {
    await suite.gw.client.request('tools.call', { name: 'get_alerts' });
    const [call] = suite.fake.callsTo('InvokeTool');
    assert.deepEqual(fromStruct(call.request.input_params), {});
    assert.equal(call.request.server, '');
  });

  test('tools.call keeps isError, structuredContent and _meta of the tool result exactly', async () => {
    const output = {
      content: [{ type: 'text', text: 'Unknown column "nope"; available: event, severity' }],
      isError: true,
      _meta: { 's2sp/tokens': { body: 12 } },
    };
    suite.fake.reply('InvokeTool', {
      status: 'TOOL_RESULT_STATUS_ERROR',
      output: toStruct(output),
      error_message: 'tool error',
    });
    assert.deepEqual(
      await suite.gw.client.request('tools.call', { name: 'get_alerts', arguments: { area: 'CA' } }),
      output,
    );
  });

  test('a tool error without MCP output becomes an isError result with the message', async () => {
    suite.fake.reply('InvokeTool', { status: 'TOOL_RESULT_STATUS_ERROR', error_message: 'weather server refused' });
    assert.deepEqual(await suite.gw.client.request('tools.call', { name: 'get_alerts' }), {
      content: [{ type: 'text', text: 'weather server refused' }],
      isError: true,
    });
  });

  test('a tool timeout is -32000 at hop "mcp"; a pending approval is 4003', async () => {
    suite.fake.reply('InvokeTool', { status: 'TOOL_RESULT_STATUS_TIMEOUT', error_message: 'MCP call timed out' });
    const timeout = await rpcError(suite.gw.client.request('tools.call', { name: 'get_alerts' }));
    assert.equal(timeout.code, -32000);
    assert.equal(timeout.data.hop, 'mcp');
    suite.fake.reply('InvokeTool', { status: 'TOOL_RESULT_STATUS_APPROVAL_PENDING', invocation_id: 'inv-9' });
    const approval = await rpcError(suite.gw.client.request('tools.call', { name: 'get_alerts' }));
    assert.equal(approval.code, 4003);
    assert.equal(approval.data.recovery_hint, 'AWAIT_APPROVAL');
  });

  test('tools.call validates its params: arguments must be an object, name a non-empty string', async () => {
    const error = await rpcError(suite.gw.client.request('tools.call', { name: '', arguments: [1, 2] }));
    assert.equal(error.code, -32602);
    assert.deepEqual(error.data.fields.map((field: { path: string }) => field.path).sort(), ['arguments', 'name']);
    assert.equal(suite.fake.callsTo('InvokeTool').length, 0);
  });

  test('a tool the agents do not have on the named server (NOT_FOUND from the agents) is -32602 with the reason', async () => {
    suite.fake.fail('InvokeTool', GrpcStatus.NOT_FOUND, 'no tool "echo" on server "weather"');
    const error = await rpcError(suite.gw.client.request('tools.call', { name: 'echo', server: 'weather' }));
    assert.equal(error.code, -32602);
    assert.equal(error.data.reason, 'no tool "echo" on server "weather"');
  });

  test('rpc.discover documents the gateway methods from their DTOs', async () => {
    const document = await suite.gw.client.request('rpc.discover', {});
    const names = document.methods.map((method: { name: string }) => method.name);
    assert.deepEqual(names, [
      'agent.cancelTask',
      'agent.getTask',
      'agent.listTasks',
      'agent.streamTask',
      'agent.submitTask',
      'resources.read',
      'tools.call',
      'tools.list',
      'v2.tools.call',
    ]);
    const call = document.methods.find((method: { name: string }) => method.name === 'tools.call');
    assert.deepEqual(
      call.params.map((param: { name: string; required: boolean }) => [param.name, param.required]),
      [
        ['name', true],
        ['arguments', false],
        ['server', false],
        ['idempotency_key', false],
        ['deadline_ms', false],
      ],
    );
    assert.equal(call['x-idempotent'], false);
    const submit = document.methods.find((method: { name: string }) => method.name === 'agent.submitTask');
    const plan = submit.params.find((param: { name: string }) => param.name === 'plan');
    assert.equal(plan.schema.type, 'array');
    const step = document.components.schemas[plan.schema.items.$ref.split('/').pop()];
    assert.deepEqual(Object.keys(step.properties), [
      'step_id',
      'depends_on',
      'resource_call',
      'filter',
      'consumer_call',
    ]);
    assert.deepEqual(step.required, ['step_id']);
    const resourceCall = document.components.schemas.ResourceCallStepDto;
    assert.deepEqual(resourceCall.properties.mode.enum, ['async', 'sync']);
  });
});
