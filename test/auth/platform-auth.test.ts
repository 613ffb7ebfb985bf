import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import type { LogLevel } from '@nestjs/common';
import { z } from 'zod';
import { S2SP_DATABASE, type RunningMcpServer } from '@s2sp/core';
import { type S2spDatabase } from '@s2sp/database';
import { DevKeyStore, TokenMinter } from '../../libs/auth/src';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { GATEWAY_DATABASE } from '../../libs/gateway/src/gateway.constants';
import { AGENTS_DATABASE } from '../../libs/agents/src/agents.tokens';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, unaryError, type AgentsClients } from '../support/agents-grpc-client';
import { connectMcp } from '../support/mcp-client';
import { fetchResource, startStats, startWeather } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';
import { alertChartPlan, submitTask, waitForTaskEnd } from '../support/agent-tasks';
import { flushAudit } from '../support/audit';
import { ALL_TEST_SCOPES, mintTestToken, tokenFromScript } from '../support/tokens';

const ALICE_SCOPES = [...ALL_TEST_SCOPES, 'files:read', 'admin:everything'];
const NOT_FOUND_CODE = -32602; // gRPC NOT_FOUND is the caller's params at fault
/** Every app logs everything, so that the scan for secrets sees every line. */
const EVERY_LEVEL: LogLevel[] = ['log', 'error', 'warn', 'debug', 'verbose'];
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}/;

/**
 * Caller-scoped security across the whole platform: every hop refuses what it
 * must with the right code, narrows what it passes on, audits its decisions,
 * and never prints a credential. Every process logs at every level here, and
 * everything written to stdout/stderr is scanned.
 */
describe('caller-scoped security on every hop', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let gateway: RunningGateway;
  let grpcClients: AgentsClients;
  let aliceToken = '';
  const captured: string[] = [];
  const secrets: string[] = [];
  const restoreOutput: Array<() => void> = [];

  /** A JSON-RPC call as alice unless `authorization` says otherwise (null: no header). */
  const rpc = async (method: string, params: unknown, authorization: string | null = `Bearer ${aliceToken}`) => {
    const response = await fetch(`${gateway.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
      body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
    });
    const text = await response.text();
    captured.push(text);
    return JSON.parse(text) as { result?: any; error?: { code: number; message: string; data?: any } };
  };
  const mint = async (request: Parameters<typeof mintTestToken>[0]) => {
    const token = await mintTestToken(request);
    secrets.push(token);
    return token;
  };

  /** Alice's allowed decisions at one app, oldest first: the scopes her token held there and who narrowed it. */
  const scopesSeen = async (database: S2spDatabase, where: Record<string, unknown>) =>
    (
      await database.client.auditEvent.findMany({
        where: { subject: 'alice', decision: 'allow', ...where },
        orderBy: { time: 'asc' },
      })
    ).map((event) => ({
      scopes: [...(event.callerScopes as string[])].sort(),
      delegatedBy: event.delegatedBy,
    }));

  /** A second S2SP resource tool, behind files:read (which alice holds): a consumer handed weather data must not get it. */
  let secondResourceTool: Promise<unknown> | undefined;
  const addSecondResourceTool = () =>
    (secondResourceTool ??= (async () => {
      testkit.addTool({
        name: 'list_files',
        description: 'An S2SP resource tool of another server, behind its own scope.',
        parameters: z.object({ abstract_domains: z.string(), mode: z.string() }),
        annotations: { readOnlyHint: true },
        _meta: { 's2sp/scopes': ['files:read'] },
        handler: () => ({ content: [{ type: 'text', text: '{}' }] }),
      });
      await eventually(
        'the agents to know list_files',
        async () => {
          const tools = await rpc('tools.list', {});
          return tools.result?.tools?.find((tool: { name: string }) => tool.name === 'list_files');
        },
        10_000,
        100,
      );
    })());

  before(async () => {
    // Every level, every app; stdout and stderr are copied for the scan.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      stream.write = (chunk: unknown, ...rest: unknown[]) => {
        captured.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      };
      restoreOutput.push(() => {
        stream.write = write;
      });
    }
    aliceToken = await tokenFromScript({ subject: 'alice', scopes: ALICE_SCOPES });
    secrets.push(aliceToken);
    weather = await startWeather({ logger: EVERY_LEVEL });
    stats = await startStats([weather.url], { logger: EVERY_LEVEL });
    testkit = await startTestMcpServer();
    const config = agentsTestConfig([
      { id: 'weather', url: `${weather.url}/mcp` },
      { id: 'stats', url: `${stats.url}/mcp` },
      { id: 'testkit', url: testkit.mcpUrl },
    ]);
    // The default: operations that need approval are denied.
    agents = await startTestAgents({ ...config, auth: { audience: 'agents' } }, { logger: EVERY_LEVEL });
    gateway = await startGateway({
      ...defaultGatewayConfig(),
      port: 0,
      agentsUrl: agents.url,
      dataDir: ':memory:',
      logger: EVERY_LEVEL,
    });
    grpcClients = connectAgents(agents.url, null);
    await eventually('the agents to discover every server', async () => {
      const listed = await rpc('tools.list', { page_size: 200 });
      const names = (listed.result?.tools ?? []).map((tool: { name: string }) => tool.name);
      return names.includes('get_alerts') && names.includes('draw_chart') && names.includes('slow');
    });
  });

  after(async () => {
    grpcClients?.close();
    await gateway?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
    for (const restore of restoreOutput) restore();
  });

  test('the gateway: no token, a bad signature, an expired or foreign token are 4001 without detail; a missing scope is 4002 naming it', async () => {
    const valid = await mint({ audience: 'gateway', scopes: ['tools:list'] });
    const [head, payload, signature] = valid.split('.');
    const badSignature = `${head}.${payload}.${signature.slice(0, -4)}${signature.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const expiredMinter = new TokenMinter({
      issuer: 's2sp-dev',
      signingKey: new DevKeyStore(),
      now: () => Date.now() - 3_600_000,
    });
    const expired = await expiredMinter.mint({
      subject: 'alice',
      scopes: ['tools:list'],
      audience: 'gateway',
      ttlSeconds: 60,
    });
    const forAgents = await mint({ audience: 'agents', scopes: ['tools:list'] });
    secrets.push(badSignature, expired);

    for (const authorization of [
      null,
      `Bearer ${badSignature}`,
      `Bearer ${expired}`,
      `Bearer ${forAgents}`,
      'Basic YWxpY2U6cHc=',
      'Bearer not.a.jwt',
    ]) {
      const { error } = await rpc('tools.list', {}, authorization);
      assert.equal(error?.code, 4001, `authorization ${authorization?.slice(0, 12)}: ${JSON.stringify(error)}`);
      assert.equal(error?.message, 'Invalid or expired credentials.');
      assert.deepEqual(
        Object.keys(error?.data ?? {}).filter((key) => !['trace_id', 'recovery_hint'].includes(key)),
        [],
      );
    }

    const { error } = await rpc(
      'agent.getTask',
      { task_id: '0190a5b2-0000-7000-8000-000000000002' },
      `Bearer ${valid}`,
    );
    assert.equal(error?.code, 4002, JSON.stringify(error));
    assert.deepEqual(error?.data?.missing_scopes, ['tasks:read']);
    assert.ok((await rpc('rpc.discover', {}, null)).result, 'rpc.discover needs no token');

    // Params are validated only for a caller who may call: nothing is learned from validation errors.
    const invalid = { objective: 'x', plan: [] };
    assert.equal((await rpc('agent.submitTask', invalid, null)).error?.code, 4001);
    assert.equal((await rpc('agent.submitTask', invalid, `Bearer ${valid}`)).error?.code, 4002);
    assert.equal((await rpc('agent.submitTask', invalid)).error?.code, -32602);
  });

  test('a widened scope is refused at the gateway: the caller lacks a scope the tool needs', async () => {
    const noWeather = await mint({ subject: 'alice', audience: 'gateway', scopes: ['tools:call'] });
    const { error } = await rpc('tools.call', { name: 'get_alerts', arguments: { area: 'DC' } }, `Bearer ${noWeather}`);
    assert.equal(error?.code, 4002);
    assert.match(error.message + JSON.stringify(error.data), /weather:read/);
  });

  test('the agents over gRPC: no or foreign token is UNAUTHENTICATED, a missing scope PERMISSION_DENIED', async () => {
    const request = { task_id: '0190a5b2-0000-7000-8000-000000000001' };
    const none = await unaryError(grpcClients.agents, 'GetTask', request);
    assert.equal(none.code, grpc.status.UNAUTHENTICATED);
    assert.equal(none.details, 'Invalid or expired credentials.');

    const metadataWith = async (token: string) => {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      return metadata;
    };
    const forGateway = await mint({ audience: 'gateway', scopes: ['tasks:read'] });
    assert.equal(
      (await unaryError(grpcClients.agents, 'GetTask', request, { metadata: await metadataWith(forGateway) })).code,
      grpc.status.UNAUTHENTICATED,
    );

    const readOnly = await mint({ audience: 'agents', scopes: ['tasks:read'] });
    const denied = await unaryError(grpcClients.agents, 'CancelTask', request, {
      metadata: await metadataWith(readOnly),
    });
    assert.equal(denied.code, grpc.status.PERMISSION_DENIED);
    assert.match(denied.details, /tasks:cancel/);
    assert.equal(denied.metadata.get('x-s2sp-error-code')[0], '4002');
  });

  test('a destructive tool needs approval, which is denied by default (4003), and the decision is audited', async () => {
    const answer = await rpc('tools.call', { name: 'slow', arguments: { ms: 0 } });
    assert.equal(answer.error?.code, 4003, JSON.stringify(answer));
    await flushAudit(agents.app);
    const audit = agents.app.get<S2spDatabase>(AGENTS_DATABASE).client.auditEvent;
    const decision = await audit.findFirst({ where: { operation: { contains: 'testkit/slow' } } });
    assert.equal(decision?.decision, 'deny');
    assert.equal(decision?.outcome, 'approval-denied');
    assert.equal(decision?.subject, 'alice');
  });

  test('an MCP server refuses a call without a token (401) and a tool call without its scope (403 naming it)', async () => {
    const anonymous = await fetch(`${weather.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        id: 1,
      }),
    });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(((await anonymous.json()) as { error: { code: number } }).error.code, 4001);

    const client = await connectMcp(weather.url, 'no-scope', { scopes: ['s2sp:data:read'] });
    try {
      // Refused over HTTP before the tool runs, with the challenge MCP clients step up with.
      await assert.rejects(
        client.callTool({ name: 'get_alerts', arguments: { area: 'DC' } }),
        (error: Error & { code?: number }) =>
          error.code === 403 && /"code":4002,"message":"Missing required scope: weather:read\."/.test(error.message),
      );
    } finally {
      await client.close();
    }
  });

  test('a resource_url serves only its caller through its bound consumer, and only once', async () => {
    const client = await connectMcp(weather.url, 'agents-like', { subject: 'alice', scopes: ['weather:read'] });
    let resourceUrl: string;
    try {
      const result = await client.callTool({
        name: 'get_alerts',
        arguments: { area: 'CA', abstract_domains: 'event' },
        _meta: { 's2sp/consumer': 'stats-server' },
      });
      resourceUrl = (result.structuredContent as { resource_url: string }).resource_url;
    } finally {
      await client.close();
    }
    secrets.push(resourceUrl.slice(resourceUrl.lastIndexOf('/') + 1));
    const scopes = ['s2sp:data:read', 'weather:read'];

    const otherCaller = await fetchResource(
      resourceUrl,
      { row_ids: [0] },
      { subject: 'mallory', scopes, delegationChain: ['gateway', 'agents', 'stats-server'] },
    );
    assert.equal(otherCaller.status, 403);
    assert.equal(otherCaller.json.error.message, 'This resource was issued to another caller.');
    const otherConsumer = await fetchResource(
      resourceUrl,
      { row_ids: [0] },
      { subject: 'alice', scopes, delegationChain: ['gateway', 'agents', 'chart-server'] },
    );
    assert.equal(otherConsumer.status, 403);
    assert.equal(otherConsumer.json.error.message, 'This resource is bound to another consumer.');

    const bound = await fetchResource(
      resourceUrl,
      { row_ids: [0] },
      { subject: 'alice', scopes, delegationChain: ['gateway', 'agents', 'stats-server'] },
    );
    assert.equal(bound.status, 200, 'the refusals did not consume it');
    const replay = await fetchResource(
      resourceUrl,
      { row_ids: [0] },
      { subject: 'alice', scopes, delegationChain: ['gateway', 'agents', 'stats-server'] },
    );
    assert.equal(replay.status, 404);
  });

  test('a full task runs with narrowed tokens: each hop saw only what it needed (from the audit tables)', async () => {
    await addSecondResourceTool();
    const submitted = await rpc('agent.submitTask', {
      objective: 'chart CA alerts',
      plan: [
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
          step_id: 'chart',
          consumer_call: {
            server: 'stats',
            tool: 'draw_chart',
            arguments: {},
            input_step_id: 'alerts',
            column_mapping: {},
          },
        },
      ],
    });
    const taskId = submitted.result.task_id as string;
    const finished = await eventually(
      'the task to end',
      async () => {
        const task = await rpc('agent.getTask', { task_id: taskId });
        return ['succeeded', 'failed'].includes(task.result?.status) ? task.result : undefined;
      },
      30_000,
      100,
    );
    assert.equal(finished.status, 'succeeded', JSON.stringify(finished.error));
    await flushAudit(gateway.app, agents.app, weather.app, stats.app);

    const atGateway = await scopesSeen(gateway.app.get<S2spDatabase>(GATEWAY_DATABASE), {
      operation: 'agent.submitTask',
    });
    assert.deepEqual(atGateway.at(-1)?.scopes, [...ALICE_SCOPES].sort(), 'the gateway saw the caller as they are');

    const atAgents = await scopesSeen(agents.app.get<S2spDatabase>(AGENTS_DATABASE), {
      operation: { contains: 'SubmitTask' },
    });
    assert.deepEqual(atAgents.at(-1), {
      scopes: ['s2sp:data:read', 'stats:chart', 'tasks:submit', 'weather:read'],
      delegatedBy: ['gateway'],
    });

    const weatherDb = weather.app.get<S2spDatabase>(S2SP_DATABASE);
    const atWeatherTool = await scopesSeen(weatherDb, { protocol: 'mcp', operation: 'get_alerts' });
    assert.deepEqual(atWeatherTool.at(-1), { scopes: ['weather:read'], delegatedBy: ['gateway', 'agents'] });
    const atStatsTool = await scopesSeen(stats.app.get<S2spDatabase>(S2SP_DATABASE), {
      protocol: 'mcp',
      operation: 'draw_chart',
    });
    assert.deepEqual(
      atStatsTool.at(-1),
      { scopes: ['s2sp:data:read', 'stats:chart', 'weather:read'], delegatedBy: ['gateway', 'agents'] },
      'the consumer got the scopes of the resource it was handed (weather:read), not files:read',
    );

    const atDataPlane = await scopesSeen(weatherDb, { protocol: 's2sp-data' });
    assert.deepEqual(atDataPlane.at(-1), {
      scopes: ['s2sp:data:read', 'weather:read'],
      delegatedBy: ['gateway', 'agents', 'stats-server'],
    });

    const fetch = await weatherDb.client.dataPlaneFetch.findFirst({
      where: { subject: 'alice', result: 'served' },
      orderBy: { time: 'desc' },
    });
    assert.equal(fetch?.consumer, 'stats-server');
    assert.ok((fetch?.rows ?? 0) > 0 && (fetch?.columns ?? 0) > 0 && (fetch?.bytes ?? 0) > 0);
    const resource = await weatherDb.client.s2spResource.findFirst({
      where: { caller: 'alice', consumer: 'stats-server' },
    });
    assert.ok(resource, 'the task bound the resource_url to the consumer it named');
    assert.deepEqual(resource.requiredScopes, ['weather:read']);

    const other = await rpc(
      'agent.getTask',
      { task_id: taskId },
      `Bearer ${await mint({ subject: 'bob', audience: 'gateway', scopes: ['tasks:read'] })}`,
    );
    assert.equal(other.error?.code, NOT_FOUND_CODE, 'another caller cannot even learn the task exists');
    assert.doesNotMatch(JSON.stringify(other), /chart CA alerts/);
  });

  test('straight to the agents, a consumer step too gets only the scopes of the resource it is handed', async () => {
    await addSecondResourceTool();
    const direct = connectAgents(agents.url, { subject: 'alice', scopes: ALICE_SCOPES });
    try {
      const accepted = await submitTask(direct.agents, { plan: alertChartPlan() });
      assert.equal((await waitForTaskEnd(direct.agents, accepted.task_id)).status, 'TASK_STATUS_SUCCEEDED');
    } finally {
      direct.close();
    }
    await flushAudit(stats.app);
    const atStatsTool = await scopesSeen(stats.app.get<S2spDatabase>(S2SP_DATABASE), {
      protocol: 'mcp',
      operation: 'draw_chart',
    });
    assert.deepEqual(
      atStatsTool.at(-1),
      { scopes: ['s2sp:data:read', 'stats:chart', 'weather:read'], delegatedBy: ['agents'] },
      'files:read stays behind',
    );
  });

  test('no token and no resource_url appears in any log line or error message', async () => {
    assert.ok(captured.length > 0, 'something was logged');
    const everything = captured.join('\n');
    assert.ok(!JWT.test(everything), `a JWT-shaped string was printed: ${JWT.exec(everything)?.[0].slice(0, 20)}…`);
    for (const secret of secrets) assert.ok(!everything.includes(secret), 'a credential or capability was printed');
    assert.doesNotMatch(everything, /\/s2sp\/data\/[A-Za-z0-9_-]{43}/, 'a resource_url was printed');
  });
});
