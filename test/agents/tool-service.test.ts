import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { RunningMcpServer } from '@s2sp/core';
import { GRPC_ERROR_METADATA, fromStruct, toStruct } from '@s2sp/contracts';
import { toTimestamp } from '@s2sp/contracts/internal';
import { z } from 'zod';
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
import { startStats, startWeather, statsConfig } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('agents ToolService over gRPC', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let clients: AgentsClients;
  /** A data plane that never answers: the consumer's fetch from it can only time out. */
  let stalledDataPlane: Server;
  let stalledUrl: string;

  before(async () => {
    weather = await startWeather();
    stalledDataPlane = createServer(() => undefined);
    await new Promise<void>((resolve) => stalledDataPlane.listen(0, '127.0.0.1', resolve));
    stalledUrl = `http://127.0.0.1:${(stalledDataPlane.address() as { port: number }).port}`;
    stats = await startStats([weather.url, stalledUrl]);
    testkit = await startTestMcpServer();
    agents = await startTestAgents(
      agentsTestConfig(
        [
          { id: 'weather', url: `${weather.url}/mcp` },
          { id: 'stats', url: `${stats.url}/mcp` },
          { id: 'testkit', url: testkit.mcpUrl },
          // Down from the start, with credentials in its URL that must never be shown.
          { id: 'ghost', url: 'http://agent:s3cr3t-password@127.0.0.1:9/mcp?token=t0ps3cret' },
        ],
        { deadlines: { minRemainingMs: 50, responseReserveMs: 150 } },
      ),
    );
    clients = connectAgents(agents.url);
  });

  after(async () => {
    clients?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
    stalledDataPlane?.closeAllConnections();
    await new Promise((resolve) => stalledDataPlane?.close(resolve));
  });

  const listAll = async (request: Message = {}): Promise<Message[]> => {
    const tools: Message[] = [];
    let cursor = '';
    for (let page = 0; page < 50; page++) {
      const response = await unary(clients.tools, 'ListTools', { ...request, cursor });
      tools.push(...response.tools);
      cursor = response.next_cursor;
      if (cursor === '') return tools;
    }
    throw new Error('ListTools never ended');
  };

  test('the health service reports SERVING for the server and both services', async () => {
    for (const service of ['', 's2sp.v1.AgentService', 's2sp.v1.ToolService']) {
      const response = await unary(clients.health, 'Check', { service });
      assert.equal(response.status, 'SERVING', `health of "${service}"`);
    }
    const unknown = await unaryError(clients.health, 'Check', { service: 'no.such.Service' });
    assert.equal(unknown.code, grpc.status.NOT_FOUND);
  });

  test('discovery: every tool of every reachable server, classified, in a stable order', async () => {
    const tools = await listAll();
    assert.deepEqual(
      tools.map((tool) => `${tool.server}/${tool.name}`),
      [
        'stats/draw_chart',
        'testkit/always_fails',
        'testkit/echo',
        'testkit/list_roots',
        'testkit/slow',
        'testkit/slow_consumer',
        'weather/get_alerts',
      ],
    );
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get_alerts.kind, 'TOOL_KIND_S2SP_RESOURCE');
    assert.equal(byName.get_alerts.mutation_class, 'MUTATION_CLASS_READ_ONLY');
    assert.equal(byName.draw_chart.kind, 'TOOL_KIND_S2SP_CONSUMER');
    assert.equal(byName.draw_chart.mutation_class, 'MUTATION_CLASS_READ_ONLY');
    assert.deepEqual(byName.get_alerts.required_scopes, ['weather:read']);
    assert.deepEqual(byName.draw_chart.required_scopes, ['stats:chart']);
    assert.deepEqual(byName.echo.required_scopes, []);
    assert.equal(byName.echo.kind, 'TOOL_KIND_STANDARD');
    assert.equal(byName.slow_consumer.kind, 'TOOL_KIND_S2SP_CONSUMER');
    assert.equal(byName.slow_consumer.mutation_class, 'MUTATION_CLASS_UNSPECIFIED', 'no annotations at all');
    assert.equal(byName.slow.mutation_class, 'MUTATION_CLASS_DESTRUCTIVE');
    assert.equal(byName.always_fails.mutation_class, 'MUTATION_CLASS_IDEMPOTENT_WRITE');
    const schema = fromStruct(byName.get_alerts.input_schema) as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.properties).sort(), ['abstract_domains', 'abstract_format', 'area', 'mode']);
    assert.equal((fromStruct(byName.get_alerts.output_schema) as { type?: string }).type, 'object');
    assert.equal(byName.get_alerts.version, '0.1.0');
  });

  test('pagination: small pages chain through opaque cursors to the same list; page_size is capped', async () => {
    const all = (await listAll()).map((tool) => `${tool.server}/${tool.name}`);
    const pages: string[][] = [];
    let cursor = '';
    do {
      const response = await unary(clients.tools, 'ListTools', { page_size: 2, cursor });
      pages.push(response.tools.map((tool: Message) => `${tool.server}/${tool.name}`));
      cursor = response.next_cursor;
      if (cursor !== '') assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    } while (cursor !== '');
    assert.equal(pages.length, Math.ceil(all.length / 2));
    assert.ok(pages.length >= 3);
    assert.ok(pages.every((page) => page.length <= 2 && page.length > 0));
    assert.deepEqual(pages.flat(), all);

    const big = await unary(clients.tools, 'ListTools', { page_size: 100_000 });
    assert.equal(big.tools.length, all.length);
    assert.equal(big.next_cursor, '');

    const testkitOnly = await listAll({ server: 'testkit', page_size: 1 });
    assert.deepEqual(
      testkitOnly.map((tool) => tool.name),
      ['always_fails', 'echo', 'list_roots', 'slow', 'slow_consumer'],
    );

    const unknown = await unaryError(clients.tools, 'ListTools', { server: 'nope' });
    assert.equal(unknown.code, grpc.status.NOT_FOUND);
    assert.match(unknown.details, /server/);
  });

  test('a tampered, foreign or mismatched cursor is INVALID_ARGUMENT naming the cursor', async () => {
    const first = await unary(clients.tools, 'ListTools', { page_size: 2 });
    const decoded = JSON.parse(Buffer.from(first.next_cursor, 'base64url').toString('utf8'));
    const tampered = Buffer.from(JSON.stringify({ ...decoded, o: 0 }), 'utf8').toString('base64url');
    for (const cursor of [
      tampered,
      'not-a-cursor',
      Buffer.from('{"o":2,"v":1}').toString('base64url'),
      first.next_cursor + 'A',
    ]) {
      const error = await unaryError(clients.tools, 'ListTools', { page_size: 2, cursor });
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, cursor);
      assert.match(error.details, /^cursor: .*(malformed or modified)/);
    }
    const otherFilter = await unaryError(clients.tools, 'ListTools', {
      page_size: 2,
      cursor: first.next_cursor,
      server: 'testkit',
    });
    assert.equal(otherFilter.code, grpc.status.INVALID_ARGUMENT);
    assert.match(otherFilter.details, /server filter/);
  });

  test('list_changed: a tool registered at runtime appears without restarting the agents; old cursors are refused', async () => {
    const before = await unary(clients.tools, 'ListTools', { page_size: 2 });
    testkit.addTool({
      name: 'added_at_runtime',
      description: 'Registered while the agents were running.',
      parameters: z.object({ n: z.number() }),
      annotations: { readOnlyHint: true },
      handler: (args) => ({ content: [{ type: 'text', text: `twice ${Number(args.n) * 2}` }] }),
    });
    const added = await eventually('the new tool in ListTools', async () => {
      const tools = await listAll({ server: 'testkit' });
      return tools.find((tool) => tool.name === 'added_at_runtime');
    });
    assert.equal(added.mutation_class, 'MUTATION_CLASS_READ_ONLY');

    const stale = await unaryError(clients.tools, 'ListTools', { page_size: 2, cursor: before.next_cursor });
    assert.equal(stale.code, grpc.status.INVALID_ARGUMENT);
    assert.match(stale.details, /registry version \d+.*changed/);

    const servers = await unary(clients.tools, 'ListServers', {});
    assert.equal(servers.servers.find((server: Message) => server.id === 'testkit').tool_count, 6);

    const answer = await unary(clients.tools, 'InvokeTool', {
      tool_name: 'added_at_runtime',
      input_params: toStruct({ n: 21 }),
    });
    assert.equal(answer.status, 'TOOL_RESULT_STATUS_SUCCESS');
    assert.equal((fromStruct(answer.output).content as Array<{ text: string }>)[0].text, 'twice 42');

    testkit.removeTool('added_at_runtime');
    await eventually('the tool gone from ListTools', async () => {
      const tools = await listAll({ server: 'testkit' });
      return tools.every((tool) => tool.name !== 'added_at_runtime');
    });
  });

  test('a name offered by two servers is FAILED_PRECONDITION naming both; naming the server resolves it', async () => {
    testkit.addTool({
      name: 'get_alerts',
      description: 'A second tool with the weather server’s name.',
      handler: () => ({ content: [{ type: 'text', text: 'testkit alerts' }] }),
    });
    try {
      await eventually(
        'get_alerts on two servers',
        async () => (await listAll()).filter((tool) => tool.name === 'get_alerts').length === 2,
      );
      const error = await unaryError(clients.tools, 'InvokeTool', {
        tool_name: 'get_alerts',
        input_params: toStruct({ area: 'CA' }),
      });
      assert.equal(error.code, grpc.status.FAILED_PRECONDITION);
      assert.match(error.details, /testkit/);
      assert.match(error.details, /weather/);
      assert.equal(trailer(error, GRPC_ERROR_METADATA.ERROR_CODE), '1004');
      const named = await unary(clients.tools, 'InvokeTool', { tool_name: 'get_alerts', server: 'testkit' });
      assert.equal((fromStruct(named.output).content as Array<{ text: string }>)[0].text, 'testkit alerts');
    } finally {
      testkit.removeTool('get_alerts');
    }
    await eventually(
      'get_alerts unique again',
      async () => (await listAll()).filter((tool) => tool.name === 'get_alerts').length === 1,
    );
  });

  test('InvokeTool without count_body_tokens: the resource server is not asked to count the body (tokens_kept_out 0)', async () => {
    const answer = await unary(clients.tools, 'InvokeTool', {
      tool_name: 'get_alerts',
      server: 'weather',
      input_params: toStruct({ area: 'CA', abstract_domains: 'event,severity' }),
    });
    assert.equal(answer.status, 'TOOL_RESULT_STATUS_SUCCESS');
    const output = fromStruct(answer.output) as { _meta?: Record<string, unknown> };
    assert.equal(output._meta?.['s2sp/body_tokens'], undefined);
    assert.ok(Number(answer.usage.tokens_in_context) > 0, 'what a model reads is still counted');
    assert.equal(Number(answer.usage.tokens_kept_out), 0);
    assert.equal(Number(answer.usage.rows_kept_out), 14);
  });

  test('InvokeTool success: an S2SP resource answer with its data-plane reference and token usage', async () => {
    const metadata = new grpc.Metadata();
    metadata.set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    const answer = await unary(
      clients.tools,
      'InvokeTool',
      {
        tool_name: 'get_alerts',
        server: 'weather',
        input_params: toStruct({ area: 'CA', abstract_domains: 'event,severity' }),
        count_body_tokens: true,
      },
      { metadata },
    );
    assert.equal(answer.status, 'TOOL_RESULT_STATUS_SUCCESS');
    assert.match(answer.invocation_id, UUID_V7);
    const output = fromStruct(answer.output) as {
      isError: boolean;
      structuredContent: { abstract: unknown[]; resource_url: string };
    };
    assert.equal(output.isError, false);
    assert.equal(output.structuredContent.abstract.length, 14);
    assert.equal(answer.data_plane.mode, 'DATA_PLANE_MODE_ASYNC');
    assert.equal(answer.data_plane.resource_url, output.structuredContent.resource_url);
    assert.deepEqual(answer.data_plane.abstract_domains, ['event', 'severity']);
    assert.ok(answer.data_plane.body_domains.includes('description'));
    assert.equal(Number(answer.data_plane.total_rows), 14);
    const inContext = Number(answer.usage.tokens_in_context);
    const keptOut = Number(answer.usage.tokens_kept_out);
    assert.ok(inContext > 0);
    assert.ok(keptOut > inContext, `kept out ${keptOut} > in context ${inContext}`);
    assert.equal(answer.trace.trace_id, '4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(answer.provenance.server, 'weather');

    const echo = await unary(clients.tools, 'InvokeTool', {
      invocation_id: 'my-call-1',
      tool_name: 'echo',
      input_params: toStruct({ text: 'hi' }),
    });
    assert.equal(echo.invocation_id, 'my-call-1');
    assert.equal(echo.data_plane, null);
    assert.deepEqual((fromStruct(echo.output).content as unknown[])[0], { type: 'text', text: 'echo: hi' });
  });

  test('InvokeTool with abstract_format "columns": the compact answer has the same data-plane reference and fewer tokens in context', async () => {
    const invoke = (extra: Record<string, unknown>) =>
      unary(clients.tools, 'InvokeTool', {
        tool_name: 'get_alerts',
        server: 'weather',
        input_params: toStruct({ area: 'CA', abstract_domains: 'event,severity', ...extra }),
      });
    const standard = await invoke({});
    const compact = await invoke({ abstract_format: 'columns' });
    assert.equal(compact.status, 'TOOL_RESULT_STATUS_SUCCESS');
    const output = fromStruct(compact.output) as {
      structuredContent: { abstract: { columns: string[] }; resource_url: string };
    };
    assert.deepEqual(output.structuredContent.abstract.columns, ['_row_id', 'event', 'severity']);
    assert.equal(compact.data_plane.resource_url, output.structuredContent.resource_url);
    assert.deepEqual(compact.data_plane.abstract_domains, ['event', 'severity']);
    assert.deepEqual(compact.data_plane.body_domains, standard.data_plane.body_domains);
    assert.equal(Number(compact.usage.rows_in_context), 14);
    assert.ok(
      Number(compact.usage.tokens_in_context) < Number(standard.usage.tokens_in_context),
      `compact ${compact.usage.tokens_in_context} < default ${standard.usage.tokens_in_context} tokens`,
    );
  });

  test('InvokeTool tool error: status ERROR with the message, not a gRPC error', async () => {
    const answer = await unary(clients.tools, 'InvokeTool', { tool_name: 'always_fails' });
    assert.equal(answer.status, 'TOOL_RESULT_STATUS_ERROR');
    assert.equal(answer.error_message, 'this tool always fails');
    assert.equal(fromStruct(answer.output).isError, true);
  });

  test('InvokeTool refusals: unknown tool or server → NOT_FOUND, missing name → INVALID_ARGUMENT, approval → PERMISSION_DENIED', async () => {
    const unknownTool = await unaryError(clients.tools, 'InvokeTool', { tool_name: 'no_such_tool' });
    assert.equal(unknownTool.code, grpc.status.NOT_FOUND);
    assert.match(unknownTool.details, /no_such_tool/);
    assert.match(unknownTool.details, /ghost/, 'names the servers that could not be asked');

    const unknownServer = await unaryError(clients.tools, 'InvokeTool', { tool_name: 'echo', server: 'nope' });
    assert.equal(unknownServer.code, grpc.status.NOT_FOUND);
    assert.match(unknownServer.details, /^server: /);

    const missing = await unaryError(clients.tools, 'InvokeTool', {});
    assert.equal(missing.code, grpc.status.INVALID_ARGUMENT);
    assert.match(missing.details, /^tool_name: /);

    const approval = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      requires_human_approval: true,
    });
    assert.equal(approval.code, grpc.status.PERMISSION_DENIED);
    assert.equal(trailer(approval, GRPC_ERROR_METADATA.ERROR_CODE), '4003');

    const wrongClass = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'slow',
      mutation_class: 'MUTATION_CLASS_READ_ONLY',
    });
    assert.equal(wrongClass.code, grpc.status.FAILED_PRECONDITION);
    assert.match(wrongClass.details, /DESTRUCTIVE/);
  });

  test('deadlines: too short for the MCP hop → DEADLINE_EXCEEDED with hop "mcp"; no time at all → hop "agents"', async () => {
    // Budgets wide enough that the agents always reach the MCP call first, however loaded the machine;
    // the slow tool outlasts them by far.
    const SLOW_MS = 20_000;
    const BUDGET_MS = 2_000;
    const started = Date.now();
    const viaField = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'slow',
      input_params: toStruct({ ms: SLOW_MS }),
      deadline: toTimestamp(Date.now() + BUDGET_MS),
    });
    assert.equal(viaField.code, grpc.status.DEADLINE_EXCEEDED);
    assert.equal(trailer(viaField, GRPC_ERROR_METADATA.DEADLINE_HOP), 'mcp');
    assert.ok(Date.now() - started < SLOW_MS, 'answered before the slow tool finished');

    const viaGrpcDeadline = await unaryError(
      clients.tools,
      'InvokeTool',
      { tool_name: 'slow', input_params: toStruct({ ms: SLOW_MS }) },
      { deadlineMs: BUDGET_MS },
    );
    assert.equal(viaGrpcDeadline.code, grpc.status.DEADLINE_EXCEEDED);
    assert.equal(trailer(viaGrpcDeadline, GRPC_ERROR_METADATA.DEADLINE_HOP), 'mcp');

    const noTime = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      input_params: toStruct({ text: 'x' }),
      deadline: toTimestamp(Date.now() + 20),
    });
    assert.equal(noTime.code, grpc.status.DEADLINE_EXCEEDED);
    assert.equal(trailer(noTime, GRPC_ERROR_METADATA.DEADLINE_HOP), 'agents');
  });

  test('deadlines: a consumer whose data-plane fetch runs out of time → DEADLINE_EXCEEDED with hop "data-plane"', async () => {
    const started = Date.now();
    const error = await unaryError(clients.tools, 'InvokeTool', {
      tool_name: 'draw_chart',
      input_params: toStruct({
        abstract_data: JSON.stringify([{ _row_id: 0, event: 'Gale Warning' }]),
        resource_url: `${stalledUrl}/s2sp/data/${'A'.repeat(43)}`,
      }),
      deadline: toTimestamp(Date.now() + 1_500),
    });
    assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED, error.details);
    assert.equal(trailer(error, GRPC_ERROR_METADATA.DEADLINE_HOP), 'data-plane');
    assert.match(error.details, /timed out/);
    assert.doesNotMatch(error.details, /AAAAAAAA/, 'the capability URL is not in the message');
    const fetchTimeoutMs = statsConfig([]).fetchTimeoutMs;
    assert.ok(
      Date.now() - started < fetchTimeoutMs,
      "cut by the call's deadline, not by the stats server's own fetch timeout",
    );
  });

  test('ListServers: connection, circuit and tool count per server, with no credentials anywhere', async () => {
    const { servers } = await unary(clients.tools, 'ListServers', {});
    const byId = Object.fromEntries(servers.map((server: Message) => [server.id, server]));
    assert.deepEqual(Object.keys(byId).sort(), ['ghost', 'stats', 'testkit', 'weather']);
    assert.equal(byId.weather.connected, true);
    assert.equal(byId.weather.circuit, 'CIRCUIT_STATE_CLOSED');
    assert.equal(byId.weather.tool_count, 1);
    assert.equal(byId.weather.url, `${weather.url}/mcp`);
    assert.ok(byId.weather.tools_refreshed_at, 'tools_refreshed_at is set');
    assert.equal(byId.weather.last_error, '');
    assert.equal(byId.ghost.connected, false);
    assert.notEqual(byId.ghost.last_error, '');
    const shown = JSON.stringify(byId.ghost);
    assert.doesNotMatch(shown, /s3cr3t|t0ps3cret|agent:/);
    assert.equal(byId.ghost.url, 'http://127.0.0.1:9/mcp?…');
  });
});
