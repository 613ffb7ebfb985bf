import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { RunningMcpServer } from '@s2sp/core';
import { JsonLogger, type JsonLogRecord } from '@s2sp/telemetry';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { startStats, startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';
import { parentSpanIdOf, sample, serviceOf } from '../telemetry/telemetry-fixtures';

/**
 * Issue 5 acceptance: one task through every app of the platform, all in this
 * process with one in-memory exporter shared by the four apps, is ONE trace
 * whose spans nest like the work does, from the JSON-RPC call at the gateway to
 * the resource server's data plane; a log line of the task names that trace.
 */
describe('tracing: one task, one trace across gateway, agents, weather and stats servers', () => {
  const exporter = new InMemorySpanExporter();
  const logLines: JsonLogRecord[] = [];
  // In one process Nest's static Logger writes through the last app's logger, so one capture serves all four.
  const logger = () =>
    new JsonLogger({
      service: 's2sp-e2e',
      levels: ['log', 'warn', 'error'],
      write: (line) => void logLines.push(JSON.parse(line)),
    });
  const telemetry = { spanExporter: exporter };
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let agents: RunningAgents;
  let gateway: RunningGateway;
  let authorization: string;

  async function rpc(method: string, params: unknown, headers: Record<string, string> = {}): Promise<any> {
    const response = await fetch(`${gateway.url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return response.json();
  }

  before(async () => {
    authorization = await bearerFor({ audience: 'gateway' });
    weather = await startWeather({ telemetry, logger: logger() });
    stats = await startStats([weather.url], { telemetry, logger: logger() });
    agents = await startTestAgents(
      agentsTestConfig(
        [
          { id: 'weather', url: `${weather.url}/mcp` },
          { id: 'stats', url: `${stats.url}/mcp` },
        ],
        { telemetry, metricsPort: 0 },
      ),
      { logger: logger() },
    );
    gateway = await startGateway({
      ...defaultGatewayConfig(),
      port: 0,
      agentsUrl: agents.url,
      dataDir: ':memory:',
      logger: logger(),
      telemetry,
    });
  });

  after(async () => {
    await gateway?.close();
    await agents?.close();
    await stats?.close();
    await weather?.close();
  });

  const plan = [
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

  let trace: ReadableSpan[] = [];
  let traceId = '';

  test('a full consumer task is one trace over all four apps', async () => {
    exporter.reset();
    const submitted = await rpc('agent.submitTask', { objective: 'chart CA alerts', plan });
    assert.ok(submitted.result, JSON.stringify(submitted));
    const taskId = submitted.result.task_id as string;
    const task = await eventually(
      `task ${taskId} to finish`,
      async () => {
        const { result } = await rpc('agent.getTask', { task_id: taskId });
        return ['succeeded', 'failed', 'cancelled'].includes(result?.status) ? result : undefined;
      },
      30_000,
      100,
    );
    assert.equal(task.status, 'succeeded', JSON.stringify(task.error));

    const submit = await eventually('the submitTask span', () =>
      exporter.getFinishedSpans().find((span) => span.name === 'jsonrpc.agent.submitTask'),
    );
    traceId = submit.spanContext().traceId;
    // The data-plane server span ends once its response is written: wait for it.
    await eventually('the data-plane server span', () =>
      exporter
        .getFinishedSpans()
        .some((span) => span.name === 's2sp.data.serve' && span.spanContext().traceId === traceId),
    );
    trace = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    assert.deepEqual(
      [...new Set(trace.map(serviceOf))].sort(),
      ['s2sp-agents', 's2sp-gateway', 's2sp-stats-server', 's2sp-weather-server'],
      spanList(trace),
    );
  });

  test('the spans nest like the work: JSON-RPC → gRPC → act → MCP → data-plane fetch → data-plane serve', () => {
    const byId = new Map(trace.map((span) => [span.spanContext().spanId, span]));
    const ancestry = (span: ReadableSpan): string[] => {
      const chain: string[] = [];
      for (let current: ReadableSpan | undefined = span; current; current = byId.get(parentSpanIdOf(current) ?? '')) {
        chain.push(`${current.name}@${serviceOf(current)}`);
      }
      return chain.reverse();
    };
    const serve = one(trace, 's2sp.data.serve', 's2sp-weather-server');
    assert.deepEqual(ancestry(serve), [
      'POST /rpc@s2sp-gateway',
      'jsonrpc.agent.submitTask@s2sp-gateway',
      'grpc.AgentService/SubmitTask@s2sp-gateway',
      'grpc.AgentService/SubmitTask@s2sp-agents',
      'act@s2sp-agents',
      'mcp.tools/call draw_chart@s2sp-agents',
      'mcp.tools/call draw_chart@s2sp-stats-server',
      's2sp.data.fetch@s2sp-stats-server',
      's2sp.data.serve@s2sp-weather-server',
    ]);
    assert.deepEqual(ancestry(one(trace, 'mcp.tools/call get_alerts', 's2sp-weather-server')).slice(3), [
      'grpc.AgentService/SubmitTask@s2sp-agents',
      'act@s2sp-agents',
      'mcp.tools/call get_alerts@s2sp-agents',
      'mcp.tools/call get_alerts@s2sp-weather-server',
    ]);
    const steps = trace.filter((span) => span.name === 'act').map((span) => span.attributes['s2sp.step.id']);
    assert.deepEqual(steps.sort(), ['alerts', 'chart', 'pick']);
    assert.ok(
      trace.some((span) => span.name === 'plan'),
      'the planner is traced',
    );
    assert.equal(trace.filter((span) => !byId.has(parentSpanIdOf(span) ?? '')).length, 1, 'one root: POST /rpc');
  });

  test('attributes: protocol, method, version, caller id and the S2SP facts, never a token or a resource_url', () => {
    const jsonRpc = one(trace, 'jsonrpc.agent.submitTask', 's2sp-gateway');
    assert.equal(jsonRpc.attributes['s2sp.protocol'], 'json-rpc');
    assert.equal(jsonRpc.attributes['s2sp.method'], 'agent.submitTask');
    assert.equal(jsonRpc.attributes['s2sp.version'], '0.1.0');
    assert.equal(jsonRpc.attributes['s2sp.caller_id'], 'test-user');
    assert.equal(one(trace, 'grpc.AgentService/SubmitTask', 's2sp-agents').attributes['s2sp.caller_id'], 'test-user');

    const resource = one(trace, 'mcp.tools/call get_alerts', 's2sp-weather-server').attributes;
    assert.equal(resource['s2sp.resource_issued'], true);
    assert.ok(Number(resource['s2sp.rows']) > 0, JSON.stringify(resource));
    assert.equal(resource['s2sp.abstract_columns'], 2);
    assert.ok(Number(resource['s2sp.body_columns']) > 10, JSON.stringify(resource));
    assert.ok(Number(resource['s2sp.tokens_saved']) > 0, 'tokens kept out of the context');

    const fetched = one(trace, 's2sp.data.fetch', 's2sp-stats-server').attributes;
    assert.equal(fetched['s2sp.fetch.result'], 'ok');
    assert.equal(fetched['server.address'], weather.url);
    const served = one(trace, 's2sp.data.serve', 's2sp-weather-server').attributes;
    assert.equal(served['s2sp.fetch.result'], 'ok');
    assert.ok(Number(served['s2sp.body_bytes']) > 0);
    assert.equal(served['s2sp.rows'], fetched['s2sp.rows']);
    assert.ok(Number(served['s2sp.body_columns']) > 10);

    const everything = JSON.stringify(
      trace.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    );
    // The route template `/s2sp/data/:token` names the endpoint; a resource_url would carry the token itself.
    assert.deepEqual(everything.match(/\/s2sp\/data\/[^:"][^"]*/g) ?? [], [], 'no resource_url');
    assert.ok(
      !/resource_url/.test(Object.keys(Object.assign({}, ...trace.map((span) => span.attributes))).join()),
      'no resource_url attribute',
    );
    assert.ok(!/bearer|eyJ[A-Za-z0-9_-]{10,}/i.test(everything), 'no token');
    assert.ok(!everything.includes(authorization.slice('Bearer '.length, 40)));
  });

  test('a log line written during the task carries its trace id', () => {
    const lines = logLines.filter((line) => line.trace_id === traceId);
    assert.ok(lines.length > 0, `no log line with trace ${traceId}`);
    const finished = lines.find((line) => /SUCCEEDED/.test(String(line.message)));
    assert.ok(finished, JSON.stringify(lines));
    assert.match(String(finished.span_id), /^[0-9a-f]{16}$/);
    assert.ok(!JSON.stringify(logLines).includes(authorization.slice('Bearer '.length)), 'no token in the logs');
  });

  test('without a traceparent the gateway starts a trace: the error names it', async () => {
    const reply = await rpc('no.such.method', {});
    assert.equal(reply.error.code, -32601);
    const id = reply.error.data?.trace_id;
    assert.match(String(id), /^[0-9a-f]{32}$/);
    await eventually('the span of that request', () =>
      exporter.getFinishedSpans().some((span) => span.spanContext().traceId === id),
    );
  });

  test('a caller traceparent is continued, and errors are recorded with their code', async () => {
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const reply = await rpc(
      'agent.getTask',
      { task_id: '00000000-0000-7000-8000-000000000000' },
      { traceparent: `00-${callerTrace}-b7ad6b7169203331-01` },
    );
    assert.ok(reply.error, JSON.stringify(reply));
    assert.equal(reply.error.data.trace_id, callerTrace);
    const span = await eventually('the failed getTask span', () =>
      exporter
        .getFinishedSpans()
        .find((s) => s.name === 'jsonrpc.agent.getTask' && s.spanContext().traceId === callerTrace),
    );
    assert.equal(span.status.code, 2 /* ERROR */);
    assert.equal(span.attributes['s2sp.error_code'], reply.error.code);
    assert.equal(
      parentSpanIdOf(
        one(
          exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === callerTrace),
          'POST /rpc',
          's2sp-gateway',
        ),
      ),
      'b7ad6b7169203331',
    );
  });

  test('each app serves Prometheus metrics: GET /metrics, the agents on their own port', async () => {
    const scrape = async (url: string) => {
      const response = await fetch(url);
      assert.equal(response.status, 200, url);
      return response.text();
    };
    const gw = await scrape(`${gateway.url}/metrics`);
    assert.ok(
      Number(
        sample(gw, 'protocol_requests_total', { protocol: 'json-rpc', method: 'agent.submitTask', status: 'success' }),
      ) >= 1,
      gw,
    );
    assert.ok(
      Number(
        sample(gw, 'gateway_transcoding_total', {
          source_protocol: 'json-rpc',
          target_protocol: 'grpc',
          method: 'agent.submitTask',
        }),
      ) >= 1,
    );
    assert.equal(sample(gw, 'circuit_breaker_state', { service: 'agents' }), 0);

    assert.ok(agents.metricsUrl, 'the agents report their metrics URL');
    const ag = await scrape(agents.metricsUrl);
    assert.ok(
      Number(
        sample(ag, 'protocol_requests_total', {
          protocol: 'grpc',
          method: 'AgentService/SubmitTask',
          status: 'success',
        }),
      ) >= 1,
      ag,
    );
    assert.ok(
      sample(ag, 'mcp_tool_call_duration_seconds_count', {
        tool_name: 'draw_chart',
        server_id: 'stats',
        status: 'success',
      }) !== undefined,
    );

    const we = await scrape(`${weather.url}/metrics`);
    assert.ok(Number(sample(we, 's2sp_resources_issued_total', { tool: 'get_alerts' })) >= 1, we);
    assert.ok(Number(sample(we, 's2sp_fetches_total', { side: 'server', result: 'ok' })) >= 1);
    assert.ok(Number(sample(we, 's2sp_context_tokens_saved_total', { tool: 'get_alerts' })) > 0);
    const st = await scrape(`${stats.url}/metrics`);
    assert.ok(Number(sample(st, 's2sp_fetches_total', { side: 'consumer', result: 'ok' })) >= 1, st);
  });
});

function one(spans: readonly ReadableSpan[], name: string, service: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name && serviceOf(span) === service);
  assert.equal(found.length, 1, `one ${name}@${service} in ${spanList(spans)}`);
  return found[0];
}

function spanList(spans: readonly ReadableSpan[]): string {
  return spans.map((span) => `${span.name}@${serviceOf(span)}`).join(', ');
}
