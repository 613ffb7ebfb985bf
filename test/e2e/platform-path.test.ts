import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JSONRPCClient, type JSONRPCResponse } from 'json-rpc-2.0';
import { S2SP_DATABASE, type RunningMcpServer } from '@s2sp/core';
import { type S2spDatabase } from '@s2sp/database';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { startStats, startWeather, tempDir } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';
import { ALL_TEST_SCOPES, tokenFromScript } from '../support/tokens';

/**
 * The whole platform path, every hop real: a JSON-RPC client nobody here wrote
 * → gateway → gRPC → agents → MCP → weather/stats servers → the stats server's
 * server-to-server fetch from the weather server's data plane.
 */
describe('platform path: JSON-RPC → gateway → gRPC → agents → MCP → data plane', () => {
  const agentsDir = tempDir('s2sp-agents-');
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let gateway: RunningGateway;
  let rpc: JSONRPCClient<Record<string, string> | void>;
  let authorization: string;

  const agentsConfig = () =>
    agentsTestConfig(
      [
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'stats', url: `${stats.url}/mcp` },
        { id: 'testkit', url: testkit.mcpUrl },
      ],
      {
        dataDir: agentsDir.path,
        port: agents?.port ?? 0,
        breaker: { windowMs: 10_000, minimumCalls: 3, errorRateThreshold: 0.5, openDurationMs: 500 },
        mcp: { callTimeoutMs: 10_000, connectTimeoutMs: 1_000, reconnectInitialDelayMs: 0, reconnectMaxDelayMs: 1_000 },
        // Each hop keeps back time to answer before its caller's deadline; a
        // generous reserve makes the innermost hop (MCP) run out first even on a
        // loaded CI machine, so the error names it reliably.
        deadlines: { minRemainingMs: 50, responseReserveMs: 300 },
      },
    );

  async function post(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
    const response = await fetch(`${gateway.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  }

  before(async () => {
    authorization = `Bearer ${await tokenFromScript({ subject: 'alice', scopes: ALL_TEST_SCOPES })}`;
    weather = await startWeather();
    stats = await startStats([weather.url]);
    testkit = await startTestMcpServer();
    agents = await startTestAgents(agentsConfig());
    const base = defaultGatewayConfig();
    gateway = await startGateway({
      ...base,
      port: 0,
      agentsUrl: agents.url,
      dataDir: ':memory:',
      logger: false,
      circuitBreaker: { ...base.circuitBreaker, openDurationMs: 500 },
    });
    rpc = new JSONRPCClient(async (payload, headers) => {
      const response = await post(payload, headers ?? {});
      if (response.status === 200) rpc.receive(response.json as JSONRPCResponse | JSONRPCResponse[]);
    });
  });

  after(async () => {
    await gateway?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
    agentsDir.remove();
  });

  const alertChartPlan = (mode: 'async' | 'sync') => [
    {
      step_id: 'alerts',
      resource_call: {
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'CA' },
        abstract_domains: ['event', 'severity'],
        mode,
      },
    },
    {
      step_id: 'pick',
      filter: {
        input_step_id: 'alerts',
        predicate: { field: 'severity', op: 'in', value: ['Severe', 'Moderate', 'Extreme'] },
      },
    },
    {
      step_id: 'chart',
      consumer_call: {
        server: 'stats',
        tool: 'draw_chart',
        arguments: { group_by: 'urgency' },
        input_step_id: 'pick',
        column_mapping: {},
      },
    },
  ];

  async function runTask(mode: 'async' | 'sync'): Promise<any> {
    const submitted = (await rpc.request('agent.submitTask', {
      objective: `chart CA alerts (${mode})`,
      plan: alertChartPlan(mode),
    })) as {
      task_id: string;
    };
    return eventually(
      `task ${submitted.task_id} to finish`,
      async () => {
        const task = (await rpc.request('agent.getTask', { task_id: submitted.task_id })) as { status: string };
        return ['succeeded', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
      },
      30_000,
      100,
    );
  }

  test('tools.list shows the tools of every MCP server, classified', async () => {
    type Listed = { tools: Array<{ name: string; server: string; kind: string; requiredScopes: string[] }> };
    // The agents discover each server in the background after they start.
    const { tools } = await eventually('every server discovered', async () => {
      const listed = (await rpc.request('tools.list', { page_size: 200 })) as Listed;
      return listed.tools.some((tool) => tool.name === 'get_alerts') &&
        listed.tools.some((tool) => tool.name === 'draw_chart')
        ? listed
        : undefined;
    });
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get('get_alerts')?.server, 'weather');
    assert.equal(byName.get('get_alerts')?.kind, 's2sp_resource');
    assert.equal(byName.get('draw_chart')?.kind, 's2sp_consumer');
    assert.deepEqual(byName.get('get_alerts')?.requiredScopes, ['weather:read']);
    assert.deepEqual(byName.get('draw_chart')?.requiredScopes, ['stats:chart']);
  });

  test("tools.list's first page lists the servers' resources, resource templates and prompts; later pages and a server filter too", async () => {
    type Listed = {
      tools: unknown[];
      nextCursor?: string;
      resources?: Array<{ server: string; uri: string; mimeType?: string }>;
      resource_templates?: Array<{ server: string; uriTemplate: string }>;
      prompts?: Array<{ server: string; name: string; arguments: Array<{ name: string; required: boolean }> }>;
    };
    const first = await eventually('the surfaces discovered', async () => {
      const listed = (await rpc.request('tools.list', { page_size: 1 })) as Listed;
      return (listed.prompts?.length ?? 0) >= 2 ? listed : undefined;
    });
    assert.equal(first.resources?.filter((resource) => resource.server === 'weather').length, 52);
    assert.equal(
      first.resources?.find((resource) => resource.uri === 'weather://alerts/CA')?.mimeType,
      'application/json',
    );
    assert.deepEqual(first.resource_templates, [
      {
        server: 'weather',
        uriTemplate: 'weather://alerts/{area}',
        name: 'alerts',
        description:
          first.resource_templates?.[0] && (first.resource_templates[0] as { description?: string }).description,
        mimeType: 'application/json',
      },
    ]);
    const prompts = new Map(first.prompts?.map((prompt) => [prompt.name, prompt]));
    assert.equal(prompts.get('triage_alerts')?.server, 'weather');
    assert.deepEqual(
      prompts.get('chart_breakdown')?.arguments.map((argument) => [argument.name, argument.required]),
      [
        ['source', true],
        ['group_by', false],
      ],
    );

    assert.ok(first.nextCursor, 'a page of one tool has a next page');
    const second = (await rpc.request('tools.list', { page_size: 1, cursor: first.nextCursor })) as Listed;
    assert.equal(second.tools.length, 1);
    assert.equal(second.resources, undefined, 'the surfaces come with the first page only');

    const statsOnly = (await rpc.request('tools.list', { server: 'stats' })) as Listed;
    assert.deepEqual(statsOnly.resources, []);
    assert.deepEqual(
      statsOnly.prompts?.map((prompt) => prompt.name),
      ['chart_breakdown'],
    );
  });

  test("tools.list's first page follows a prompt added and removed at run time: the gateway keeps the surfaces only while the agents' catalog is unchanged", async () => {
    const promptNames = async () =>
      (((await rpc.request('tools.list', {})) as { prompts?: Array<{ name: string }> }).prompts ?? []).map(
        (prompt) => prompt.name,
      );
    // Twice: the second first page is answered from the surfaces the gateway kept.
    assert.ok(!(await promptNames()).includes('runtime_prompt'));
    assert.ok(!(await promptNames()).includes('runtime_prompt'));
    weather.mcp.registerPrompt({
      name: 'runtime_prompt',
      description: 'A prompt registered at run time.',
      handler: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }),
    });
    try {
      await eventually(
        'the gateway to list the added prompt',
        async () => (await promptNames()).includes('runtime_prompt'),
        30_000,
        500,
      );
    } finally {
      weather.mcp.removePrompt('runtime_prompt');
    }
    await eventually(
      'the gateway to drop the removed prompt',
      async () => !(await promptNames()).includes('runtime_prompt'),
      30_000,
      500,
    );
  });

  test('a full async task: the consumer fetched the body server to server and the model-visible tokens are counted', async () => {
    const consumed = () =>
      weather.app.get<S2spDatabase>(S2SP_DATABASE).client.s2spResource.count({ where: { consumedAt: { not: null } } });
    const consumedBefore = await consumed();
    const task = await runTask('async');
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error ?? task.steps?.at(-1)));

    const resourceStep = task.steps.find((step: any) => step.plan_step_id === 'alerts');
    const call = resourceStep.tool_calls[0];
    assert.equal(call.data_plane.mode, 'async');
    assert.deepEqual(call.data_plane.abstract_domains, ['event', 'severity']);
    assert.ok(!JSON.stringify(task).includes('/s2sp/data/'), 'the snapshot never shows the capability URL');

    const chartStep = task.steps.find((step: any) => step.plan_step_id === 'chart');
    assert.equal(chartStep.outcome, 'success');
    assert.match(JSON.stringify(chartStep), /Charted \d+ rows? by urgency/);

    assert.equal(
      await consumed(),
      consumedBefore + 1,
      'the stats server fetched (consumed) the cached body from the weather server',
    );
    assert.ok(task.usage.tokens_in_context > 0, 'tokens that entered the planner context are counted');
    assert.ok(
      task.usage.tokens_kept_out > task.usage.tokens_in_context,
      `kept out ${task.usage.tokens_kept_out} vs in ${task.usage.tokens_in_context}`,
    );
  });

  test("agent.listTasks pages through the caller's own tasks, newest first, and filters by status; another caller sees none of them", async () => {
    const task = await runTask('async');
    const first = await rpc.request('agent.listTasks', { page_size: 1 });
    assert.equal(first.tasks.length, 1);
    assert.equal(first.tasks[0].task_id, task.task_id, 'the newest task comes first');
    assert.equal(first.tasks[0].status, task.status);
    assert.equal(first.tasks[0].objective, 'chart CA alerts (async)');
    assert.equal(first.tasks[0].plan_steps, 3);
    assert.equal(typeof first.next_cursor, 'string', 'an earlier task follows');
    const second = await rpc.request('agent.listTasks', { page_size: 1, cursor: first.next_cursor });
    assert.notEqual(second.tasks[0].task_id, task.task_id);
    const succeeded = await rpc.request('agent.listTasks', { status: 'succeeded', page_size: 100 });
    assert.ok(succeeded.tasks.length >= 1 && succeeded.tasks.every((listed: any) => listed.status === 'succeeded'));

    const bad = await post({ jsonrpc: '2.0', id: 1, method: 'agent.listTasks', params: { cursor: 'garbage!' } });
    assert.equal(bad.json.error.code, -32602);
    assert.match(bad.json.error.data.reason, /^cursor: not a cursor from a previous ListTasks page/);

    const bob = `Bearer ${await tokenFromScript({ subject: 'bob', scopes: ALL_TEST_SCOPES })}`;
    const bobs = await post({ jsonrpc: '2.0', id: 2, method: 'agent.listTasks', params: {} }, { authorization: bob });
    assert.deepEqual(bobs.json.result, { tasks: [] });
  });

  test('sync mode: the body travels in the agents runtime buffer, nothing is cached on the resource server', async () => {
    const cached = () => weather.app.get<S2spDatabase>(S2SP_DATABASE).client.s2spResource.count();
    const cachedBefore = await cached();
    const task = await runTask('sync');
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));
    assert.equal(await cached(), cachedBefore, 'sync mode caches nothing on the resource server');
    const call = task.steps.find((step: any) => step.plan_step_id === 'alerts').tool_calls[0];
    assert.equal(call.data_plane.mode, 'sync');
    assert.ok(task.usage.tokens_kept_out > 0);
  });

  test('"constructor" and "toString" are ordinary column names from the JSON-RPC call to the consumer', async () => {
    const finished = async (columnMapping: Record<string, string>) => {
      const plan = alertChartPlan('sync');
      plan[2] = {
        step_id: 'chart',
        consumer_call: {
          server: 'stats',
          tool: 'draw_chart',
          arguments: { group_by: 'severity' },
          input_step_id: 'pick',
          column_mapping: columnMapping,
        },
      };
      const submitted = (await rpc.request('agent.submitTask', {
        objective: 'columns named like Object.prototype members',
        plan,
      })) as { task_id: string };
      return eventually(
        'the task to finish',
        async () => {
          const snapshot = await rpc.request('agent.getTask', { task_id: submitted.task_id });
          return ['succeeded', 'failed', 'cancelled'].includes(snapshot.status) ? snapshot : undefined;
        },
        30_000,
        100,
      );
    };
    // Renamed to: the consumer merges and charts the rows.
    const renamed = await finished({ urgency: 'constructor', event: 'toString' });
    assert.equal(renamed.status, 'succeeded', JSON.stringify(renamed.error ?? renamed.steps?.at(-1)));
    assert.match(
      JSON.stringify(renamed.steps.find((step: any) => step.plan_step_id === 'chart')),
      /Charted \d+ rows? by severity/,
    );
    // Renamed from: the key reached the consumer's merge as a column name (which these rows lack).
    const unknown = await finished({ constructor: 'maker' });
    assert.equal(unknown.status, 'failed');
    assert.match(JSON.stringify(unknown), /column_mapping names column constructor, which the rows do not have/);
  });

  test("a caller's over-deep arguments are that caller's -32602 and leave the agents available to everyone", async () => {
    let deep: Record<string, unknown> = { text: 'deep' };
    for (let level = 0; level < 50; level++) deep = { nested: deep };
    for (let attempt = 0; attempt < 8; attempt++) {
      const { json } = await post({
        jsonrpc: '2.0',
        id: attempt,
        method: 'tools.call',
        params: { name: 'echo', server: 'testkit', arguments: deep },
      });
      assert.equal(json.error.code, -32602, JSON.stringify(json));
      assert.equal(json.error.data.limit, 'maxParamsDepth');
    }
    const answer = await rpc.request('tools.call', {
      name: 'echo',
      server: 'testkit',
      arguments: { text: 'others still served' },
    });
    assert.equal(answer.content[0].text, 'echo: others still served');
  });

  test('a batch across real methods succeeds partially, in order, and notifications get no answer', async () => {
    const { status, json } = await post([
      { jsonrpc: '2.0', id: 1, method: 'tools.list', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'tools.call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'no.such.method' },
      { jsonrpc: '2.0', method: 'tools.list', params: {} },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools.call',
        params: { name: 'echo', server: 'testkit', arguments: { text: 'hi' } },
      },
    ]);
    assert.equal(status, 200);
    assert.deepEqual(
      json.map((reply: any) => reply.id),
      [1, 2, 3, 4],
    );
    assert.ok(Array.isArray(json[0].result.tools));
    assert.equal(typeof json[1].error.code, 'number');
    assert.equal(json[2].error.code, -32601);
    assert.equal(json[3].result.content[0].text, 'echo: hi');
  });

  test('a deadline too short for the MCP hop answers DEADLINE_EXCEEDED saying where time ran out', async () => {
    const { json } = await post(
      {
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools.call',
        params: { name: 'slow', server: 'testkit', arguments: { ms: 5_000 } },
      },
      { 'X-Deadline-Ms': String(Date.now() + 1_500) },
    );
    assert.equal(json.error.code, -32000, JSON.stringify(json));
    assert.equal(json.error.data.hop, 'mcp');
  });

  test('an idempotent retry of agent.submitTask returns the first answer and runs one task', async () => {
    const params = { objective: 'idempotent', plan: alertChartPlan('async'), idempotency_key: 'e2e-key-1' };
    const [first, second] = await Promise.all([
      rpc.request('agent.submitTask', params),
      rpc.request('agent.submitTask', params),
    ]);
    assert.deepEqual(second, first);
    const third = await rpc.request('agent.submitTask', params);
    assert.deepEqual(third, first);
  });

  test('a stopped MCP server opens its breaker; restarted, a probe closes it', async () => {
    const port = testkit.server.port;
    await testkit.close();
    const callEcho = () =>
      post({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools.call',
        params: { name: 'echo', server: 'testkit', arguments: { text: 'x' } },
      });
    const health = async () => (await (await fetch(`${gateway.url}/health`)).json()) as any;
    const testkitHealth = async () => (await health()).mcpServers.find((server: any) => server.id === 'testkit');
    // Calls fail while the server is down until failures reach the error rate of the breaker's window,
    // where the earlier tests' calls (successes and failures) may still be: then it opens (half-open
    // 500 ms later).
    let failed = 0;
    while ((await testkitHealth()).circuit === 'closed') {
      assert.ok((await callEcho()).json.error, 'fails while the server is down');
      failed += 1;
      assert.ok(failed <= 30, `the circuit is still closed after ${failed} failed calls`);
    }
    assert.ok(failed >= 1, 'it opened on failed calls, not before');
    assert.equal((await callEcho()).json.error.code, -32001, 'fast-fails while open');

    testkit = await startTestMcpServer(port);
    await eventually(
      'the testkit circuit to close after a successful probe',
      async () => {
        const reply = await callEcho();
        return reply.json.result?.content?.[0]?.text === 'echo: x' && (await testkitHealth()).circuit === 'closed';
      },
      15_000,
      200,
    );
  });

  test('after a restart of the agents a finished task is still readable through the gateway', async () => {
    const task = await runTask('async');
    assert.equal(task.status, 'succeeded');
    await agents.close();
    agents = await startTestAgents(agentsConfig());
    const reread = await eventually(
      'the restarted agents to answer getTask',
      async () => await rpc.request('agent.getTask', { task_id: task.task_id }),
      15_000,
      200,
    );
    assert.equal(reread.status, 'succeeded');
    assert.equal(reread.steps.length, task.steps.length);
    assert.deepEqual(reread.usage, task.usage);
  });
});
