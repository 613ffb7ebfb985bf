import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { v1, type JsonObject } from '@s2sp/contracts';
import { agentsConfigFromEnv, DEFAULT_MCP_SERVERS, validateAgentsConfig } from '../../libs/agents/src/agents.config';
import { assertTimeRemains, downstreamBudget, earliestDeadline } from '../../libs/agents/src/common/deadline-budget';
import { describeError, redactResourceUrl, redactUrl } from '../../libs/agents/src/common/redact';
import { InvalidRequestError } from '../../libs/agents/src/common/request-errors';
import { parseMcpServerList } from '../../libs/agents/src/config/mcp-server-list';
import { listAllTools, type ToolLister } from '../../libs/agents/src/mcp/list-all-tools';
import type { RegisteredTool } from '../../libs/agents/src/mcp/registered-tool';
import { classifyMutation, classifyToolKind } from '../../libs/agents/src/mcp/tool-classification';
import { DeadlineExceededError } from '../../libs/agents/src/mcp/tool-call-errors';
import { SurfaceRegistry } from '../../libs/agents/src/mcp/surface-registry';
import { ToolRegistry } from '../../libs/agents/src/mcp/tool-registry';
import { PlannerContext } from '../../libs/agents/src/tasks/planner-context';
import { validateAgentTask } from '../../libs/agents/src/tasks/task-validation';
import { readS2spResourceAnswer } from '@s2sp/agent';
import { ToolListCursorCodec } from '../../libs/agents/src/tools/tool-list-cursor';
import { DEFAULT_SAMPLING_CONFIG } from '../../libs/agents/src/sampling/sampling-config';
import { withEnv } from '../support/with-env';

const SAMPLING_ENV_KEYS = [
  'AGENTS_SAMPLING_SERVERS',
  'AGENTS_SAMPLING_MODEL_HINTS',
  'AGENTS_SAMPLING_MAX_TOKENS',
  'AGENTS_SAMPLING_MAX_TASK_TOKENS',
  'AGENTS_SAMPLING_RATE_PER_MINUTE',
  'AGENTS_SAMPLING_MAX_REQUEST_CHARS',
  'AGENTS_MCP_ROOTS',
];
const ENV_KEYS = [
  'AGENTS_HOST',
  'AGENTS_PORT',
  'AGENTS_MAX_CONNECTION_AGE_MS',
  'AGENTS_MCP_SERVERS',
  'AGENTS_DATA_DIR',
  'DATABASE_URL',
  'AGENTS_BREAKER_ERROR_RATE',
  'AGENTS_BREAKER_MIN_CALLS',
  'AGENTS_BREAKER_MINIMUM_BUDGET_MS',
  'AGENTS_METRICS_PORT',
  'AGENTS_MCP_PROTOCOL',
  ...SAMPLING_ENV_KEYS,
];
const cleanEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, undefined]));

describe('agents configuration', () => {
  test('defaults: 127.0.0.1:50051, weather and stats on 3101/3102, .data/agents, metrics on 9464', () => {
    const config = withEnv(cleanEnv, () => agentsConfigFromEnv());
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 50051);
    assert.equal(config.dataDir, '.data/agents');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.breaker.minimumBudgetMs, 2_000, 'a timeout counts against an MCP server from a 2 s budget');
    assert.deepEqual(config.mcpServers, parseMcpServerList(DEFAULT_MCP_SERVERS));
    assert.deepEqual(
      config.mcpServers.map((server) => server.id),
      ['weather', 'stats'],
    );
    assert.equal(config.mcpServers[0].url, 'http://127.0.0.1:3101/mcp');
    assert.equal(config.metricsPort, 9464, 'the agents serve Prometheus metrics on 9464 by default');
    assert.equal(
      config.maxConnectionAgeMs,
      300_000,
      'clients reconnect (and resolve the replicas again) every 5 minutes',
    );
  });

  test('environment overrides, port 0, and refusals that name the variable', () => {
    const config = withEnv(
      {
        ...cleanEnv,
        AGENTS_PORT: '0',
        AGENTS_MCP_SERVERS: 'a=http://h:1/mcp?x=1, b=https://h/mcp',
        AGENTS_BREAKER_ERROR_RATE: '0.25',
        AGENTS_BREAKER_MIN_CALLS: '3',
        AGENTS_BREAKER_MINIMUM_BUDGET_MS: '750',
      },
      () => agentsConfigFromEnv(),
    );
    assert.equal(config.port, 0);
    assert.deepEqual(config.mcpServers, [
      { id: 'a', url: 'http://h:1/mcp?x=1' },
      { id: 'b', url: 'https://h/mcp' },
    ]);
    assert.equal(config.breaker.errorRateThreshold, 0.25);
    assert.equal(config.breaker.minimumCalls, 3);
    assert.equal(config.breaker.minimumBudgetMs, 750);
    assert.equal(withEnv({ ...cleanEnv, AGENTS_METRICS_PORT: '9999' }, () => agentsConfigFromEnv()).metricsPort, 9999);
    assert.throws(() => withEnv({ ...cleanEnv, AGENTS_PORT: '70000' }, () => agentsConfigFromEnv()), /AGENTS_PORT/);
    assert.equal(
      withEnv({ ...cleanEnv, AGENTS_MAX_CONNECTION_AGE_MS: '0' }, () => agentsConfigFromEnv()).maxConnectionAgeMs,
      0,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MAX_CONNECTION_AGE_MS: '2147483648' }, () => agentsConfigFromEnv()),
      /AGENTS_MAX_CONNECTION_AGE_MS/,
    );
    assert.throws(
      () => validateAgentsConfig({ ...withEnv(cleanEnv, () => agentsConfigFromEnv()), maxConnectionAgeMs: -1 }),
      /maxConnectionAgeMs/,
    );
  });

  test('sampling and roots: deny-by-default defaults, and every variable sets its field', () => {
    const defaults = withEnv(cleanEnv, () => agentsConfigFromEnv());
    assert.deepEqual(defaults.sampling, DEFAULT_SAMPLING_CONFIG);
    assert.deepEqual(defaults.sampling?.allowedServers, [], 'no server may sample unless listed');
    assert.deepEqual(defaults.roots, []);
    const set = withEnv(
      {
        ...cleanEnv,
        AGENTS_SAMPLING_SERVERS: 'stats',
        AGENTS_SAMPLING_MODEL_HINTS: 'small, medium',
        AGENTS_SAMPLING_MAX_TOKENS: '100',
        AGENTS_SAMPLING_MAX_TASK_TOKENS: '500',
        AGENTS_SAMPLING_RATE_PER_MINUTE: '7',
        AGENTS_SAMPLING_MAX_REQUEST_CHARS: '9000',
        AGENTS_MCP_ROOTS: '*=file:///srv/shared,stats=file:///srv/charts',
      },
      () => agentsConfigFromEnv(),
    );
    assert.deepEqual(set.sampling, {
      allowedServers: ['stats'],
      allowedModelHints: ['small', 'medium'],
      maxTokensPerRequest: 100,
      maxTokensPerTask: 500,
      requestsPerMinute: 7,
      maxRequestChars: 9000,
    });
    assert.deepEqual(set.roots, [
      { server: '*', uri: 'file:///srv/shared' },
      { server: 'stats', uri: 'file:///srv/charts' },
    ]);
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_SAMPLING_SERVERS: 'nope' }, () => agentsConfigFromEnv()),
      /sampling.allowedServers names "nope"/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_SAMPLING_MAX_TOKENS: '0' }, () => agentsConfigFromEnv()),
      /AGENTS_SAMPLING_MAX_TOKENS/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MCP_ROOTS: 'stats=/srv' }, () => agentsConfigFromEnv()),
      /roots\[0\].uri must be a file:\/\/ URI/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_BREAKER_ERROR_RATE: '2' }, () => agentsConfigFromEnv()),
      /AGENTS_BREAKER_ERROR_RATE/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_BREAKER_MINIMUM_BUDGET_MS: 'soon' }, () => agentsConfigFromEnv()),
      /AGENTS_BREAKER_MINIMUM_BUDGET_MS/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MCP_SERVERS: 'just-a-url' }, () => agentsConfigFromEnv()),
      /AGENTS_MCP_SERVERS\[0\]/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MCP_SERVERS: 'a=ftp://x/mcp' }, () => agentsConfigFromEnv()),
      /mcpServers\[0\]\.url .* http or https/,
    );
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MCP_SERVERS: 'a=http://x/1,a=http://x/2' }, () => agentsConfigFromEnv()),
      /configured twice/,
    );
  });

  test("AGENTS_MCP_PROTOCOL: 'auto' by default, 'legacy' on request, anything else refused naming the variable", () => {
    assert.equal(withEnv(cleanEnv, () => agentsConfigFromEnv()).mcp.protocol, 'auto');
    const legacy = withEnv({ ...cleanEnv, AGENTS_MCP_PROTOCOL: 'legacy' }, () => agentsConfigFromEnv());
    assert.equal(legacy.mcp.protocol, 'legacy');
    assert.throws(
      () => withEnv({ ...cleanEnv, AGENTS_MCP_PROTOCOL: '2026' }, () => agentsConfigFromEnv()),
      /AGENTS_MCP_PROTOCOL/,
    );
    const config = withEnv(cleanEnv, () => agentsConfigFromEnv());
    assert.throws(
      () => validateAgentsConfig({ ...config, mcp: { ...config.mcp, protocol: 'modern' as never } }),
      /mcp\.protocol must be one of auto, legacy/,
    );
  });

  test('a configuration built by hand is validated too', () => {
    const config = withEnv(cleanEnv, () => agentsConfigFromEnv());
    assert.throws(
      () => validateAgentsConfig({ ...config, breaker: { ...config.breaker, openDurationMs: 0 } }),
      /breaker\.openDurationMs/,
    );
    assert.throws(
      () => validateAgentsConfig({ ...config, mcpServers: [{ id: 'bad id', url: 'http://x' }] }),
      /mcpServers\[0\]\.id/,
    );
  });
});

describe('agents building blocks', () => {
  test("SurfaceRegistry's fingerprint follows the surfaces' content, the same on every replica", () => {
    const surfaces = (uri: string) => ({
      resources: [{ serverId: 'weather', uri, name: uri }],
      resourceTemplates: [],
      prompts: [],
    });
    const replicaA = new SurfaceRegistry();
    const replicaB = new SurfaceRegistry();
    replicaA.replace('weather', surfaces('weather://alerts/CA'));
    replicaA.replace('stats', surfaces('stats://x'));
    // Discovered in the other order on the other replica.
    replicaB.replace('stats', surfaces('stats://x'));
    replicaB.replace('weather', surfaces('weather://alerts/CA'));
    const before = replicaA.fingerprint;
    assert.match(before, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(replicaB.fingerprint, before);
    replicaA.replace('weather', surfaces('weather://alerts/CA'));
    assert.equal(replicaA.fingerprint, before, 'the same content read again');
    replicaA.replace('weather', surfaces('weather://alerts/NY'));
    assert.notEqual(replicaA.fingerprint, before);
  });

  test('tool classification: S2SP kinds from the input schema, mutation class from annotations', () => {
    assert.equal(classifyToolKind({ properties: { area: {}, abstract_domains: {}, mode: {} } }), 'S2SP_RESOURCE');
    assert.equal(
      classifyToolKind({ properties: { abstract_domains: {}, mode: {}, abstract_format: {} } }),
      'S2SP_RESOURCE',
    );
    assert.equal(
      classifyToolKind({ properties: { abstract_data: {}, resource_url: {}, body_data: {}, column_mapping: {} } }),
      'S2SP_CONSUMER',
    );
    assert.equal(classifyToolKind({ properties: { abstract_data: {} } }), 'STANDARD');
    assert.equal(classifyToolKind(undefined), 'STANDARD');
    assert.equal(classifyMutation({ readOnlyHint: true, destructiveHint: true }), 'READ_ONLY');
    assert.equal(classifyMutation({ destructiveHint: true }), 'DESTRUCTIVE');
    assert.equal(classifyMutation({ idempotentHint: true }), 'IDEMPOTENT_WRITE');
    assert.equal(classifyMutation({ readOnlyHint: false }), 'NON_IDEMPOTENT_WRITE');
    assert.equal(classifyMutation({ title: 'no hints' }), 'UNSPECIFIED');
    assert.equal(classifyMutation(undefined), 'UNSPECIFIED');
  });

  test('tool discovery follows nextCursor across pages and refuses a looping server', async () => {
    const pages: Record<
      string,
      { tools: Array<{ name: string; inputSchema: { type: 'object' } }>; nextCursor?: string }
    > = {
      '': { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'p2' },
      p2: { tools: [{ name: 'b', inputSchema: { type: 'object' } }], nextCursor: 'p3' },
      p3: { tools: [{ name: 'c', inputSchema: { type: 'object' } }] },
    };
    const requested: Array<string | undefined> = [];
    const lister: ToolLister = {
      listTools: async (params) => {
        requested.push(params?.cursor);
        return pages[params?.cursor ?? ''];
      },
    };
    assert.deepEqual(
      (await listAllTools(lister)).map((tool) => tool.name),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(requested, [undefined, 'p2', 'p3']);
    const looping: ToolLister = { listTools: async () => ({ tools: [], nextCursor: 'again' }) };
    await assert.rejects(listAllTools(looping), /repeated a tools\/list cursor/);
  });

  test('an S2SP answer is read from the first text block when there is no structuredContent', () => {
    const answer = {
      total_rows: 2,
      abstract_domains: ['event'],
      body_domains: ['description'],
      abstract: [{ _row_id: 0, event: 'Wind' }],
      body: [{ _row_id: 0, description: 'gusts' }],
    };
    const text = (value: string) => ({ content: [{ type: 'text', text: value }], isError: false });
    assert.equal(
      readS2spResourceAnswer(text(`\n\t ${JSON.stringify(answer)}`))?.totalRows,
      2,
      'JSON after white space',
    );
    assert.equal(readS2spResourceAnswer(text(JSON.stringify(answer)))?.abstract.length, 1);
    assert.equal(readS2spResourceAnswer(text('echo: hi')), undefined, 'plain text');
    assert.equal(
      readS2spResourceAnswer(text(`[${JSON.stringify(answer)}]`)),
      undefined,
      'a JSON array is not an answer',
    );
    assert.equal(readS2spResourceAnswer(text('{ not json')), undefined);
  });

  test('a compact S2SP answer (abstract_format "columns") reads as the same rows and domains', () => {
    const url = 'http://127.0.0.1:3101/s2sp/data/dK7xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const structured = (value: JsonObject) => ({ content: [], structuredContent: value, isError: false });
    const async = readS2spResourceAnswer(
      structured({
        total_rows: 2,
        body_domains: ['description'],
        resource_url: url,
        abstract: {
          columns: ['_row_id', 'event'],
          rows: [
            [0, 'Wind'],
            [1, 'Flood'],
          ],
        },
      }),
    );
    assert.deepEqual(async?.abstract, [
      { _row_id: 0, event: 'Wind' },
      { _row_id: 1, event: 'Flood' },
    ]);
    assert.deepEqual(
      [async?.abstractDomains, async?.bodyDomains, async?.columns],
      [['event'], ['description'], ['event', 'description']],
    );
    assert.equal(async?.resourceUrl, url);

    const sync = readS2spResourceAnswer(
      structured({
        total_rows: 1,
        abstract: { columns: ['_row_id', 'event'], rows: [[0, 'Wind']] },
        body: { columns: ['_row_id', 'description'], rows: [[0, 'gusts']] },
      }),
    );
    assert.deepEqual(sync?.body, [{ _row_id: 0, description: 'gusts' }]);
    assert.deepEqual(sync?.bodyDomains, ['description']);
    assert.equal(sync?.controlPlane.body, undefined, 'the body is not part of the control plane');

    const noRowIds = {
      total_rows: 1,
      body_domains: [],
      resource_url: url,
      abstract: { columns: ['event'], rows: [['Wind']] },
    };
    assert.equal(
      readS2spResourceAnswer(structured(noRowIds)),
      undefined,
      'compact rows without _row_id are not an answer',
    );
  });

  test('the registry version grows only when a server’s tools really change', () => {
    const registry = new ToolRegistry();
    const tool = (serverId: string, name: string): RegisteredTool => ({
      serverId,
      name,
      description: '',
      inputSchema: { type: 'object' },
      kind: 'STANDARD',
      mutationClass: 'UNSPECIFIED',
      scopes: [],
      version: '1',
    });
    const start = registry.version;
    assert.equal(registry.replace('b', [tool('b', 'z'), tool('b', 'y')]), true);
    assert.equal(registry.replace('a', [tool('a', 'x')]), true);
    assert.equal(registry.version, start + 2);
    assert.equal(registry.replace('b', [tool('b', 'y'), tool('b', 'z')]), false, 'same tools in another order');
    assert.equal(registry.version, start + 2);
    assert.deepEqual(
      registry.all().map((entry) => `${entry.serverId}/${entry.name}`),
      ['a/x', 'b/y', 'b/z'],
    );
    assert.deepEqual(
      registry.find('x').map((entry) => entry.serverId),
      ['a'],
    );
  });

  test('list cursors round-trip and refuse other versions, other filters, other keys and edits', () => {
    const codec = new ToolListCursorCodec();
    const cursor = codec.encode({ offset: 50, registryVersion: 7, server: '' });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(codec.decode(cursor, { registryVersion: 7, server: '' }).offset, 50);
    assert.throws(
      () => codec.decode(cursor, { registryVersion: 8, server: '' }),
      (error: Error) => error instanceof InvalidRequestError && /version 7/.test(error.message),
    );
    assert.throws(() => codec.decode(cursor, { registryVersion: 7, server: 'weather' }), /server filter/);
    assert.throws(
      () => new ToolListCursorCodec().decode(cursor, { registryVersion: 7, server: '' }),
      /malformed or modified/,
    );
    const edited = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    edited.o = 0;
    assert.throws(
      () => codec.decode(Buffer.from(JSON.stringify(edited)).toString('base64url'), { registryVersion: 7, server: '' }),
      /malformed or modified/,
    );
    assert.throws(() => codec.decode('%%%', { registryVersion: 7, server: '' }), /InvalidRequestError: cursor: /);
  });

  test('deadline budget: earliest deadline wins; too little time is refused at the agents hop', () => {
    const policy = { minRemainingMs: 50, responseReserveMs: 20 };
    assert.equal(earliestDeadline(undefined, 2_000, 1_000), 1_000);
    assert.equal(earliestDeadline(undefined, Number.POSITIVE_INFINITY), undefined);
    assert.deepEqual(downstreamBudget(undefined, policy, 60_000, 0), { timeoutMs: 60_000, deadlineMs: undefined });
    const budget = downstreamBudget(1_000, policy, 60_000, 0);
    assert.equal(budget.timeoutMs, 980);
    assert.ok(
      budget.deadlineMs !== undefined && budget.deadlineMs < 980,
      'the server is told a deadline before our own timeout',
    );
    assert.throws(
      () => downstreamBudget(60, policy, 60_000, 0),
      (error: Error) => error instanceof DeadlineExceededError && error.hop === 'agents',
    );
    assert.throws(() => assertTimeRemains(-5, policy, 0), /deadline passed/);
    assert.doesNotThrow(() => assertTimeRemains(undefined, policy));
  });

  test('redaction: no credentials, queries or capability tokens in what the agents show', () => {
    assert.equal(redactUrl('https://user:pw@example.com:8443/mcp?token=abc#x'), 'https://example.com:8443/mcp?…');
    assert.equal(redactResourceUrl('http://h:3101/s2sp/data/AbCdEf0123456789'), 'http://h:3101/s2sp/data/<redacted>');
    const text = describeError(
      new Error('GET http://u:p@h:1/s2sp/data/SECRETTOKEN failed; Authorization: Bearer abc.def'),
    );
    assert.doesNotMatch(text, /SECRETTOKEN|u:p@|abc\.def/);
    assert.match(text, /http:\/\/h:1/);
  });

  test('the planner context counts exactly what was admitted', () => {
    const context = new PlannerContext();
    const first = context.admit('a', 'resource-abstract', '{"abstract":[{"_row_id":0,"event":"Gale Warning"}]}');
    const second = context.admit('b', 'consumer-result', 'Charted 1 row.');
    assert.ok(first.tokens > 0 && second.tokens > 0);
    assert.equal(context.tokens, first.tokens + second.tokens);
    assert.deepEqual(
      context.admitted.map((entry) => entry.stepId),
      ['a', 'b'],
    );
  });

  test('task validation fills defaults and names fields in its refusals', () => {
    const task = validateAgentTask(
      v1.AgentTask.fromPartial({
        plan: [
          {
            step_id: 'r',
            resource_call: { tool: 'get_alerts', abstract_domains: ['event'], mode: 'DATA_PLANE_MODE_SYNC' },
          },
          { step_id: 'c', consumer_call: { tool: 'draw_chart', column_mapping: { event: 'kind' } } },
        ],
      }),
      ['weather'],
    );
    assert.match(task.taskId, /^[0-9a-f-]{36}$/);
    assert.equal(task.agentType, 's2sp-pipeline');
    assert.equal(task.plan[0].kind === 'resource_call' && task.plan[0].mode, 'sync');
    assert.equal(
      task.plan[1].kind === 'consumer_call' && task.plan[1].inputStepId,
      'r',
      'a consumer without input_step_id takes the rows of the step before',
    );
    assert.throws(
      () =>
        validateAgentTask(
          v1.AgentTask.fromPartial({
            plan: [{ step_id: 'r', resource_call: { tool: 'x', abstract_domains: ['a,b'] } }],
          }),
          [],
        ),
      /: task\.plan\[0\]\.resource_call\.abstract_domains\[0\]: /,
    );
    assert.throws(
      () =>
        validateAgentTask(
          v1.AgentTask.fromPartial({
            plan: [{ step_id: 'r', resource_call: { tool: 'x', abstract_domains: ['a'] } }],
            constraints: { max_steps: 1_000_000 },
          }),
          [],
        ),
      /: task\.constraints\.max_steps: /,
    );
    assert.throws(
      () =>
        validateAgentTask(
          v1.AgentTask.fromPartial({
            plan: [
              {
                step_id: 'r',
                resource_call: { tool: 'x', abstract_domains: ['a'], arguments: { abstract_format: 'columns' } },
              },
            ],
          }),
          [],
        ),
      /: task\.plan\[0\]\.resource_call\.arguments: must not contain abstract_format/,
      'the agents read the default layout, so a plan cannot ask for the compact one',
    );
    let deep: Record<string, unknown> = { field: 'a', op: 'eq', value: 1 };
    for (let level = 0; level < 40; level++) deep = { not: deep };
    assert.throws(
      () =>
        validateAgentTask(
          v1.AgentTask.fromPartial({
            plan: [
              { step_id: 'r', resource_call: { tool: 'x', abstract_domains: ['a'] } },
              { step_id: 'f', filter: { input_step_id: 'r', predicate: deep } },
            ],
          }),
          [],
        ),
      /predicate: is nested deeper/,
    );
  });
});
