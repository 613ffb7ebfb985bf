import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fromStruct } from '../../libs/contracts/src';
import { CapturedLogs } from '../support/captured-logs';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';

const LIMITS = { maxParamsDepth: 8, maxParamsArrayLength: 10, maxParamsStringLength: 100, maxParamsMembers: 60 };
const MISS_REFRESH_MS = 300;
const NAMES_OF_OBJECT_PROTOTYPE = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** An object nested `depth` levels below its holder: { a: { a: ... { leaf: 1 } } }. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

const alertsStep = {
  step_id: 'alerts',
  resource_call: { server: 'weather', tool: 'get_alerts', arguments: { area: 'CA' }, abstract_domains: ['event'] },
};

function chartStep(columnMapping: Record<string, string>) {
  return {
    step_id: 'chart',
    consumer_call: { server: 'stats', tool: 'draw_chart', input_step_id: 'alerts', column_mapping: columnMapping },
  };
}

describe("gateway edge: a caller's bad input is that caller's error", () => {
  const logs = new CapturedLogs();
  let fake: FakeAgents;
  let gw: TestGateway;
  before(async () => {
    fake = await FakeAgents.start();
    gw = await startTestGateway(fake, {
      logger: logs.logger,
      jsonRpc: LIMITS,
      toolCatalog: { missRefreshIntervalMs: MISS_REFRESH_MS },
    });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });
  beforeEach(() => {
    fake.reset();
    logs.clear();
  });

  // First: the gateway has not read the tool catalog yet, as right after a start.
  test('a tool the agents have not discovered yet is -32001 with a retry hint, and a later call re-reads the catalog', async () => {
    fake.reply('ListTools', { tools: [], next_cursor: '' }); // the agents have not reached the MCP servers yet
    const early = await rpcError(gw.client.request('tools.call', { name: 'get_alerts', arguments: { area: 'CA' } }));
    assert.equal(early.code, -32001);
    assert.match(early.message, /not \(yet\) discovered.*get_alerts/);
    assert.deepEqual(early.data.tools, ['get_alerts']);
    assert.equal(early.data.recovery_hint, 'RETRY_AFTER');
    assert.ok(early.data.retry_after >= 1);
    assert.equal(fake.callsTo('InvokeTool').length, 0, 'not forwarded with a token lacking the tool scopes');

    // A miss re-reads the catalog at most once per interval: unknown names cannot hammer the agents.
    const readsBefore = fake.callsTo('ListTools').length;
    assert.equal((await rpcError(gw.client.request('tools.call', { name: 'get_alerts' }))).code, -32001);
    assert.equal(fake.callsTo('ListTools').length, readsBefore);

    fake.reset(); // the agents now list the MCP servers' tools
    await new Promise((resolve) => setTimeout(resolve, MISS_REFRESH_MS + 50));
    const result = await gw.client.request('tools.call', { name: 'get_alerts', arguments: { area: 'CA' } });
    assert.equal(result.structuredContent.tool, 'get_alerts');
    assert.equal(fake.callsTo('ListTools').length, 1);
    assert.deepEqual(logs.errorsOrStacks(), []);
  });

  test('the fuzzer reproducers are -32602 naming the field, with nothing logged as an error', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      [
        'submitTask constructor member',
        'agent.submitTask',
        { objective: 'x', plan: [alertsStep], constructor: 1 },
        'constructor',
      ],
      ['plan [[]]', 'agent.submitTask', { objective: 'x', plan: [[]] }, 'plan'],
      [
        'filter []',
        'agent.submitTask',
        { objective: 'x', plan: [alertsStep, { step_id: 'f', filter: [] }] },
        'plan[1].filter',
      ],
      ['constraints []', 'agent.submitTask', { objective: 'x', plan: [alertsStep], constraints: [] }, 'constraints'],
      [
        'nested step constructor',
        'agent.submitTask',
        { objective: 'x', plan: [{ ...alertsStep, constructor: null }] },
        'plan[0].constructor',
      ],
    ];
    for (const method of ['tools.list', 'tools.call', 'agent.submitTask', 'agent.getTask', 'agent.cancelTask']) {
      cases.push([`${method} {constructor: null}`, method, { constructor: null }, 'constructor']);
    }
    for (const [label, method, params, path] of cases) {
      const error = await rpcError(gw.client.request(method, params));
      assert.equal(error.code, -32602, label);
      assert.ok(
        error.data.fields.some((field: { path: string }) => field.path === path),
        `${label}: ${JSON.stringify(error.data.fields)}`,
      );
    }
    assert.equal(fake.calls.filter((call) => call.method !== 'ListTools').length, 0);
    assert.deepEqual(logs.errorsOrStacks(), []);
  });

  test('params nested past the limit are -32602 naming it, before any call to the agents, on every method', async () => {
    const deep: [string, Record<string, unknown>][] = [
      ['tools.call', { name: 'echo', arguments: nested(50) }],
      ['tools.call', { name: 'echo', arguments: nested(300) }],
      [
        'agent.submitTask',
        {
          objective: 'x',
          plan: [{ ...alertsStep, resource_call: { ...alertsStep.resource_call, arguments: nested(2_400) } }],
        },
      ],
      ['tools.list', { cursor: nested(20) }],
      ['rpc.discover', { anything: nested(20) }],
    ];
    for (const [method, params] of deep) {
      const error = await rpcError(gw.client.request(method, params));
      assert.equal(error.code, -32602, method);
      assert.equal(error.data.limit, 'maxParamsDepth');
      assert.equal(error.data.max, LIMITS.maxParamsDepth);
      assert.match(error.message, /deeper than 8 levels/);
    }
    // Deeper than JSON.stringify (or any recursive code) can go: the check itself does not overflow.
    const depth = 100_000;
    const { json } = await gw.post(
      `{"jsonrpc":"2.0","id":1,"method":"agent.getTask","params":{"task_id":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`,
    );
    assert.equal(json.error.code, -32602);
    assert.equal(json.error.data.limit, 'maxParamsDepth');
    assert.equal(fake.calls.filter((call) => call.method !== 'ListTools').length, 0);
    assert.deepEqual(logs.errorsOrStacks(), []);
  });

  test('array length, string length and the number of values in params are bounded, each error naming its limit', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { name: 'echo', arguments: { rows: Array.from({ length: 11 }, () => 0) } },
        'maxParamsArrayLength',
        'arguments.rows',
      ],
      [{ name: 'echo', arguments: { text: 'x'.repeat(101) } }, 'maxParamsStringLength', 'arguments.text'],
      [{ name: 'echo', arguments: { ['k'.repeat(101)]: 1 } }, 'maxParamsStringLength', 'arguments'],
      [
        { name: 'echo', arguments: Object.fromEntries(Array.from({ length: 61 }, (_, i) => [`m${i}`, i])) },
        'maxParamsMembers',
        'arguments',
      ],
    ];
    for (const [params, limit, path] of cases) {
      const error = await rpcError(gw.client.request('tools.call', params));
      assert.equal(error.code, -32602);
      assert.equal(error.data.limit, limit);
      assert.equal(error.data.max, LIMITS[limit as keyof typeof LIMITS]);
      assert.equal(error.data.fields[0].path, path);
    }
    // At the limits, the call goes through.
    const atLimits = {
      rows: Array.from({ length: 10 }, () => 'x'.repeat(100)),
      deep: nested(LIMITS.maxParamsDepth - 2),
    };
    const result = await gw.client.request('tools.call', { name: 'echo', arguments: atLimits });
    assert.deepEqual(result.structuredContent.arguments, atLimits);
  });

  test("many callers' over-deep params do not open the circuit for everyone else", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      assert.equal(
        (await rpcError(gw.client.request('tools.call', { name: 'echo', arguments: nested(50) }))).code,
        -32602,
      );
      const submit = {
        objective: 'x',
        plan: [{ ...alertsStep, resource_call: { ...alertsStep.resource_call, arguments: nested(50) } }],
      };
      assert.equal((await rpcError(gw.client.request('agent.submitTask', submit))).code, -32602);
    }
    const result = await gw.client.request('tools.call', { name: 'echo', arguments: { ok: true } });
    assert.deepEqual(result.structuredContent.arguments, { ok: true });
    assert.equal((await gw.health()).json.agents.circuit.state, 'closed');
  });

  test('names of Object.prototype properties are ordinary data in column_mapping and tool arguments', async () => {
    const columnMapping = Object.fromEntries(NAMES_OF_OBJECT_PROTOTYPE.map((name) => [name, `${name}_column`]));
    const accepted = await gw.client.request('agent.submitTask', {
      objective: 'x',
      plan: [alertsStep, chartStep(columnMapping)],
    });
    assert.equal(accepted.status, 'accepted');
    const [submitted] = fake.callsTo('SubmitTask');
    assert.deepEqual({ ...submitted.request.task.plan[1].consumer_call.column_mapping }, columnMapping);

    const args = Object.fromEntries(NAMES_OF_OBJECT_PROTOTYPE.map((name) => [name, { [name]: [name] }]));
    const result = await gw.client.request('tools.call', { name: 'echo', arguments: args });
    assert.deepEqual(result.structuredContent.arguments, args);
    assert.deepEqual(fromStruct(fake.callsTo('InvokeTool')[0].request.input_params), args);
    // A JSON text argument is a string like any other, whatever member names it spells.
    const text = '{"__proto__":{"polluted":true},"constructor":"c"}';
    const asText = await gw.client.request('tools.call', { name: 'echo', arguments: { column_mapping_json: text } });
    assert.equal(asText.structuredContent.arguments.column_mapping_json, text);
    assert.deepEqual(logs.errorsOrStacks(), []);
  });

  test('a __proto__ member anywhere in params is refused by name rather than dropped on the way', async () => {
    const body =
      '{"jsonrpc":"2.0","id":1,"method":"agent.submitTask","params":{"objective":"x","plan":[' +
      '{"step_id":"alerts","resource_call":{"server":"weather","tool":"get_alerts"}},' +
      '{"step_id":"chart","consumer_call":{"server":"stats","tool":"draw_chart","input_step_id":"alerts","column_mapping":{"__proto__":"x"}}}]}}';
    const { json } = await gw.post(body);
    assert.equal(json.error.code, -32602);
    assert.equal(json.error.data.fields[0].path, 'plan[1].consumer_call.column_mapping.__proto__');
    assert.equal(fake.callsTo('SubmitTask').length, 0);
  });
});

describe('gateway edge: params the limits let through but protobuf cannot encode', () => {
  const logs = new CapturedLogs();
  let fake: FakeAgents;
  let gw: TestGateway;
  before(async () => {
    fake = await FakeAgents.start();
    // Limits raised past what protobuf encodes (a misconfiguration, or a path the limits do not cover).
    gw = await startTestGateway(fake, { logger: logs.logger, jsonRpc: { maxParamsDepth: 500 } });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });

  test('are -32602 and never count against the circuit breaker', async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const error = await rpcError(gw.client.request('tools.call', { name: 'echo', arguments: nested(80) }));
      assert.equal(error.code, -32602);
      assert.match(error.message, /cannot be encoded for the agents \(maximum nesting depth exceeded\)/);
    }
    assert.equal(fake.callsTo('InvokeTool').length, 0);
    assert.equal((await gw.health()).json.agents.circuit.state, 'closed');
    const result = await gw.client.request('tools.call', { name: 'echo', arguments: { ok: true } });
    assert.deepEqual(result.structuredContent.arguments, { ok: true });
    assert.deepEqual(logs.errorsOrStacks(), []);
  });
});
