import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { GRPC_ERROR_METADATA, toStruct } from '@s2sp/contracts';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import {
  connectAgents,
  grpc,
  trailer,
  unary,
  unaryError,
  type AgentsClients,
  type Message,
} from '../support/agents-grpc-client';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';
import { freePort } from '../support/free-port';

const OPEN_MS = 1_500;

describe('agents and MCP servers that come and go', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const server = async (clients: AgentsClients, id: string): Promise<Message> =>
    (await unary(clients.tools, 'ListServers', {})).servers.find((candidate: Message) => candidate.id === id);
  const echo = (clients: AgentsClients) =>
    unary(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      server: 'flaky',
      input_params: toStruct({ text: 'ping' }),
    });

  test('started before its MCP server; circuit opens when the server stops, probes and closes when it returns', async () => {
    const port = await freePort();
    const agents: RunningAgents = await startTestAgents(
      agentsTestConfig([{ id: 'flaky', url: `http://127.0.0.1:${port}/mcp` }], {
        // 0.6, not 0.5: CircuitBreaker also opens on a success that leaves the rate at the threshold (reported).
        breaker: { windowMs: 30_000, minimumCalls: 2, errorRateThreshold: 0.6, openDurationMs: OPEN_MS },
        mcp: { callTimeoutMs: 5_000, connectTimeoutMs: 2_000, reconnectInitialDelayMs: 0, reconnectMaxDelayMs: 1_000 },
      }),
    );
    cleanups.push(() => agents.close());
    const clients = connectAgents(agents.url);
    cleanups.push(() => clients.close());

    // Up without its MCP server: serving, the server listed as not connected, no tools.
    assert.equal((await unary(clients.health, 'Check', { service: '' })).status, 'SERVING');
    assert.equal((await server(clients, 'flaky')).connected, false);
    assert.equal((await unary(clients.tools, 'ListTools', {})).tools.length, 0);

    // The server comes up: the next use connects and discovers its tools.
    let flaky: TestMcpServer | undefined = await startTestMcpServer(port, 'flaky');
    cleanups.push(() => flaky?.close());
    assert.equal((await echo(clients)).status, 'TOOL_RESULT_STATUS_SUCCESS');
    assert.equal((await server(clients, 'flaky')).connected, true);
    assert.equal((await server(clients, 'flaky')).circuit, 'CIRCUIT_STATE_CLOSED');
    assert.ok((await unary(clients.tools, 'ListTools', {})).tools.length >= 4);

    // The server stops: calls fail UNAVAILABLE (the server is tried) until the breaker opens.
    await flaky.close();
    flaky = undefined;
    let triedAndFailed = 0;
    for (let attempt = 0; attempt < 10; attempt++) {
      const error = await unaryError(clients.tools, 'InvokeTool', {
        tool_name: 'echo',
        server: 'flaky',
        input_params: toStruct({ text: 'x' }),
      });
      assert.equal(error.code, grpc.status.UNAVAILABLE, error.details);
      if (/circuit open/.test(error.details)) break;
      assert.match(error.details, /not reachable|closed the connection|HTTP/);
      triedAndFailed++;
    }
    assert.ok(triedAndFailed >= 1 && triedAndFailed <= 3, `the circuit opened after ${triedAndFailed} failed calls`);
    const status = await server(clients, 'flaky');
    assert.equal(status.circuit, 'CIRCUIT_STATE_OPEN');
    assert.equal(status.connected, false);
    assert.notEqual(status.last_error, '');
    // Refused by the open circuit without trying the server: the calls that tried it failed with
    // "not reachable" (or the like) above, and the circuit stays open.
    const fast = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      server: 'flaky',
      input_params: toStruct({ text: 'x' }),
    });
    assert.equal(fast.code, grpc.status.UNAVAILABLE);
    assert.match(fast.details, /circuit open/);
    assert.doesNotMatch(fast.details, /not reachable|closed the connection|HTTP/);
    assert.ok(Number(trailer(fast, GRPC_ERROR_METADATA.RETRY_AFTER)) >= 1);
    assert.equal((await server(clients, 'flaky')).circuit, 'CIRCUIT_STATE_OPEN');

    // The server returns: after the open period the circuit is half-open, one probe succeeds and closes it.
    flaky = await startTestMcpServer(port, 'flaky');
    await eventually(
      'the circuit to become half-open',
      async () => (await server(clients, 'flaky')).circuit === 'CIRCUIT_STATE_HALF_OPEN',
      OPEN_MS * 4,
    );
    assert.equal((await echo(clients)).status, 'TOOL_RESULT_STATUS_SUCCESS');
    const healed = await server(clients, 'flaky');
    assert.equal(healed.circuit, 'CIRCUIT_STATE_CLOSED');
    assert.equal(healed.connected, true);
    assert.equal(healed.last_error, '');
  });

  test("a caller's short deadlines do not open the server's circuit; timeouts with a budget of at least breaker.minimumBudgetMs do", async () => {
    const port = await freePort();
    // Budgets of a second and more: on a loaded machine a shorter one can run out before the call
    // reaches the MCP hop, and then the breaker is not what the test sees.
    const MINIMUM_BUDGET_MS = 2_000;
    const SHORT_BUDGET_MS = 1_000;
    // Up before the agents: their connection at start succeeds, so the window holds only the calls below.
    const sluggish = await startTestMcpServer(port, 'sluggish');
    cleanups.push(() => sluggish.close());
    const agents = await startTestAgents(
      agentsTestConfig([{ id: 'sluggish', url: `http://127.0.0.1:${port}/mcp` }], {
        breaker: {
          windowMs: 60_000,
          minimumCalls: 2,
          errorRateThreshold: 0.5,
          openDurationMs: 60_000,
          minimumBudgetMs: MINIMUM_BUDGET_MS,
        },
      }),
    );
    cleanups.push(() => agents.close());
    const clients = connectAgents(agents.url);
    cleanups.push(() => clients.close());
    const slowCall = (deadlineMs: number) =>
      unaryError(
        clients.tools,
        'InvokeTool',
        { tool_name: 'slow', server: 'sluggish', input_params: toStruct({ ms: 30_000 }) },
        { deadlineMs },
      );

    // Budgets under the minimum: each runs out at the MCP hop, none counts against the server
    // (counted, two failures beside the connection's one success would reach the error rate and open it).
    for (let call = 0; call < 2; call++) {
      const error = await slowCall(SHORT_BUDGET_MS);
      assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED, error.details);
      // The agents answer when the MCP hop runs out, at the caller's deadline: on a loaded machine the
      // caller's own deadline can fire first, and its error then carries no trailer.
      const hop = trailer(error, GRPC_ERROR_METADATA.DEADLINE_HOP);
      assert.ok(hop === undefined || hop === 'mcp', `deadline hop ${hop}`);
    }
    const spared = await server(clients, 'sluggish');
    assert.equal(spared.circuit, 'CIRCUIT_STATE_CLOSED');
    assert.equal(spared.last_error, '');

    // Budgets of at least the minimum that the server still outlasts: its fault. They open the circuit
    // once they reach the error rate (the agents' own successful requests, connecting, are in the window).
    let judged = 0;
    while ((await server(clients, 'sluggish')).circuit === 'CIRCUIT_STATE_CLOSED') {
      const error = await slowCall(MINIMUM_BUDGET_MS + 500);
      assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED, error.details);
      judged += 1;
      assert.ok(judged <= 5, `still closed after ${judged} timeouts of a judged budget`);
    }
    assert.equal((await server(clients, 'sluggish')).circuit, 'CIRCUIT_STATE_OPEN');
    const refused = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      server: 'sluggish',
      input_params: toStruct({ text: 'x' }),
    });
    assert.equal(refused.code, grpc.status.UNAVAILABLE);
    assert.match(refused.details, /circuit open/);
  });

  test('background reconnection discovers a server that starts later, without any call', async () => {
    const port = await freePort();
    const agents = await startTestAgents(
      agentsTestConfig([{ id: 'late', url: `http://127.0.0.1:${port}/mcp` }], {
        mcp: { callTimeoutMs: 5_000, connectTimeoutMs: 2_000, reconnectInitialDelayMs: 100, reconnectMaxDelayMs: 400 },
      }),
    );
    cleanups.push(() => agents.close());
    const clients = connectAgents(agents.url);
    cleanups.push(() => clients.close());
    assert.equal((await server(clients, 'late')).connected, false);

    const late = await startTestMcpServer(port, 'late');
    cleanups.push(() => late.close());
    const tools = await eventually('the late server’s tools', async () => {
      const listed = (await unary(clients.tools, 'ListTools', { server: 'late' })).tools;
      return listed.length > 0 ? listed : undefined;
    });
    assert.ok(tools.some((tool: Message) => tool.name === 'echo'));
    assert.equal((await server(clients, 'late')).connected, true);
  });
});
