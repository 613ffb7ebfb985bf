import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { FakeAgents, sleep } from '../support/fake-agents';
import { removeTempDirs, rpcError, startTestGateway, type TestGateway } from '../support/gateway-harness';

const MINIMUM_CALLS = 4;
const OPEN_MS = 1_500;
/** grpc.breakerMinimumBudgetMs of the gateway under test, and a budget below it. */
const JUDGED_BUDGET_MS = 600;
const SHORT_BUDGET_MS = 200;
const TASK_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';

async function waitFor<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in time; last value ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

describe('gateway circuit breaker in front of the agents, and GET /health', () => {
  let fake: FakeAgents;
  let gw: TestGateway;

  before(async () => {
    fake = await FakeAgents.start();
    gw = await startTestGateway(fake, {
      circuitBreaker: {
        windowMs: 10_000,
        minimumCalls: MINIMUM_CALLS,
        errorRateThreshold: 0.5,
        openDurationMs: OPEN_MS,
      },
      grpc: { breakerMinimumBudgetMs: JUDGED_BUDGET_MS },
      // Generous: the first probe also opens the gRPC connection, which a loaded CI machine can take long over.
      health: { timeoutMs: 5_000 },
    });
  });
  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
  });

  test('/health is ok with everything up: agents serving, circuit closed, MCP servers listed', async () => {
    const { status, json } = await gw.health();
    assert.equal(status, 200);
    assert.equal(json.status, 'ok');
    assert.equal(json.gateway.database.kind, 'postgres', 'the embedded PostgreSQL server of its data directory');
    assert.equal(json.gateway.database.status, 'ok');
    assert.equal(json.agents.url, fake.address);
    assert.equal(json.agents.status, 'serving');
    assert.equal(json.agents.circuit.state, 'closed');
    assert.deepEqual(json.mcpServers, [
      { id: 'weather', url: 'http://127.0.0.1:3101/mcp', connected: true, circuit: 'closed', toolCount: 1 },
      { id: 'stats', url: 'http://127.0.0.1:3102/mcp', connected: true, circuit: 'closed', toolCount: 2 },
    ]);
    assert.equal(fake.calls.length, 1, 'only ListServers; health probes are not JSON-RPC calls');
  });

  test('a disconnected MCP server or one with an open circuit makes the gateway degraded (HTTP 200)', async () => {
    fake.reply('ListServers', {
      servers: [
        {
          id: 'weather',
          url: 'http://127.0.0.1:3101/mcp',
          connected: false,
          circuit: 'CIRCUIT_STATE_OPEN',
          tool_count: 0,
          last_error: 'ECONNREFUSED',
        },
        {
          id: 'stats',
          url: 'http://127.0.0.1:3102/mcp',
          connected: true,
          circuit: 'CIRCUIT_STATE_HALF_OPEN',
          tool_count: 2,
        },
      ],
    });
    const { status, json } = await gw.health();
    assert.equal(status, 200);
    assert.equal(json.status, 'degraded');
    assert.deepEqual(json.mcpServers[0], {
      id: 'weather',
      url: 'http://127.0.0.1:3101/mcp',
      connected: false,
      circuit: 'open',
      toolCount: 0,
      lastError: 'ECONNREFUSED',
    });
    assert.equal(json.mcpServers[1].circuit, 'half-open');
    fake.reset();
  });

  test('agents NOT_SERVING: down, HTTP 503', async () => {
    fake.setServing('NOT_SERVING');
    const { status, json } = await gw.health();
    assert.equal(status, 503);
    assert.equal(json.status, 'down');
    assert.equal(json.agents.status, 'not_serving');
    fake.reset();
  });

  test('agents down: UNAVAILABLE errors open the circuit, then calls fail fast without touching the network', async () => {
    await fake.stop();
    for (let index = 0; index < MINIMUM_CALLS; index++) {
      const error = await rpcError(gw.client.request('tools.list', {}));
      assert.equal(error.code, -32001);
      assert.equal(error.message, 'Upstream service unavailable');
    }
    // A call that tried the agents answered 'Upstream service unavailable' above; this one is
    // refused by the open circuit itself (that no call reaches the agents then is the next test's).
    const fastFail = await rpcError(gw.client.request('tools.list', {}));
    assert.equal(fastFail.code, -32001);
    assert.equal(fastFail.message, 'agents unavailable');
    assert.equal(fastFail.data.circuit, 'open');
    assert.equal(fastFail.data.downstream, 'agents');
    assert.equal(fastFail.data.recovery_hint, 'RETRY_AFTER');
    assert.ok(fastFail.data.retry_after >= 1 && fastFail.data.retry_after <= Math.ceil(OPEN_MS / 1000));

    const { status, json } = await gw.health();
    assert.equal(status, 503);
    assert.equal(json.status, 'down');
    assert.equal(json.agents.status, 'unreachable');
    assert.match(json.agents.error, /^UNAVAILABLE/);
    assert.equal(json.agents.circuit.state, 'open');
    assert.ok(json.mcpServersError);
    assert.deepEqual(json.mcpServers, []);
  });

  test('agents back but circuit still open: fast fails (the agents see nothing), health degraded', async () => {
    fake.reset();
    await fake.restart();
    const error = await rpcError(gw.client.request('agent.getTask', { task_id: TASK_ID }));
    assert.equal(error.message, 'agents unavailable');
    assert.equal(fake.calls.length, 0, 'no call reached the agents while the circuit was open');
    const { json } = await waitFor(
      () => gw.health(),
      (health) => health.json.agents.status === 'serving',
    );
    assert.ok(['open', 'half-open'].includes(json.agents.circuit.state), json.agents.circuit.state);
    assert.equal(json.status, 'degraded', 'agents serving, but the circuit is not closed yet');
  });

  test('after the open period one probe goes through; its success closes the circuit', async () => {
    const halfOpen = await waitFor(
      () => gw.health(),
      (health) => health.json.agents.circuit.state === 'half-open',
      OPEN_MS + 2_000,
    );
    assert.equal(halfOpen.status, 200);
    assert.equal(halfOpen.json.status, 'degraded');
    fake.calls.length = 0;
    fake.delay('GetTask', 1_000);
    // While the probe is in flight (it has reached the agents, which have not answered), other calls still fail fast.
    const probe = gw.client.request('agent.getTask', { task_id: TASK_ID });
    await waitFor(
      async () => fake.callsTo('GetTask').length,
      (received) => received === 1,
    );
    const meanwhile = await rpcError(gw.client.request('tools.list', {}));
    assert.equal(meanwhile.message, 'agents unavailable');
    assert.equal((await probe).task_id, TASK_ID);
    assert.equal(fake.callsTo('GetTask').length, 1);
    assert.equal(fake.callsTo('ListTools').length, 0);

    const { status, json } = await gw.health();
    assert.equal(status, 200);
    assert.equal(json.status, 'ok');
    assert.equal(json.agents.circuit.state, 'closed');
    assert.equal((await gw.client.request('tools.list', {})).tools.length, 3);
  });

  test('a failing probe opens the circuit again', async () => {
    fake.reset();
    fake.fail('ListTools', GrpcStatus.INTERNAL, 'boom');
    for (let index = 0; index < MINIMUM_CALLS; index++) await rpcError(gw.client.request('tools.list', {}));
    assert.equal((await rpcError(gw.client.request('tools.list', {}))).message, 'agents unavailable');
    await waitFor(
      () => gw.health(),
      (health) => health.json.agents.circuit.state === 'half-open',
      OPEN_MS + 2_000,
    );
    const probe = await rpcError(gw.client.request('tools.list', {}));
    assert.equal(probe.code, -32603, 'the probe reached the agents and failed');
    const { json } = await gw.health();
    assert.equal(json.agents.circuit.state, 'open');
    // and the next successful probe closes it
    fake.reset();
    await waitFor(
      () => gw.health(),
      (health) => health.json.agents.circuit.state === 'half-open',
      OPEN_MS + 2_000,
    );
    assert.equal((await gw.client.request('tools.list', {})).tools.length, 3);
    assert.equal((await gw.health()).json.agents.circuit.state, 'closed');
  });

  test("a caller's errors (INVALID_ARGUMENT, NOT_FOUND) do not open the circuit", async () => {
    fake.fail('GetTask', GrpcStatus.NOT_FOUND, 'no such task');
    for (let index = 0; index < MINIMUM_CALLS * 2; index++) {
      assert.equal((await rpcError(gw.client.request('agent.getTask', { task_id: TASK_ID }))).code, -32602);
    }
    const { json } = await gw.health();
    assert.equal(json.agents.circuit.state, 'closed');
    assert.equal(json.agents.circuit.failuresInWindow, 0);
    fake.reset();
  });

  test('a deadline the agents answered themselves (naming the hop) does not open the circuit: the caller’s budget was short', async () => {
    fake.fail('GetTask', GrpcStatus.DEADLINE_EXCEEDED, 'budget spent', { 'x-s2sp-deadline-hop': 'agents' });
    for (let index = 0; index < MINIMUM_CALLS * 2; index++) {
      const error = await rpcError(gw.client.request('agent.getTask', { task_id: TASK_ID }));
      assert.deepEqual([error.code, error.data.hop], [-32000, 'agents']);
    }
    const { json } = await gw.health();
    assert.equal(json.agents.circuit.state, 'closed');
    assert.equal(json.agents.circuit.failuresInWindow, 0);
    fake.reset();
  });

  test('a short deadline the gateway itself ended (the agents never answered) does not count; one with budget to spare does', async () => {
    fake.delay('GetTask', 3_000);
    const getTask = async (budgetMs: number) =>
      rpcError(
        gw.client.request('agent.getTask', { task_id: TASK_ID }, { 'x-deadline-ms': String(Date.now() + budgetMs) }),
      );
    for (let index = 0; index < MINIMUM_CALLS * 2; index++) {
      const error = await getTask(SHORT_BUDGET_MS);
      assert.deepEqual([error.code, error.data.hop], [-32000, 'grpc']);
    }
    assert.equal((await gw.health()).json.agents.circuit.failuresInWindow, 0);

    const error = await getTask(JUDGED_BUDGET_MS + 100);
    assert.deepEqual([error.code, error.data.hop], [-32000, 'grpc']);
    assert.equal((await gw.health()).json.agents.circuit.failuresInWindow, 1);
    fake.reset();
  });
});
