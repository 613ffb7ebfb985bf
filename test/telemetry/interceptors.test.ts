import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpController, Tool } from '@rekog/mcp-nest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { JsonRpcError, JsonRpcMethod, JsonRpcModule, toJsonRpcError } from '@s2sp/json-rpc';
import { serveMcp, type RunningMcpServer } from '../../libs/s2sp/src';
import { startTelemetry, TelemetryModule, traceMcpToolCall, type Telemetry } from '../../libs/telemetry/src';
import {
  CLIENT_SPAN_ID,
  CLIENT_TRACE_ID,
  CLIENT_TRACEPARENT,
  eventually,
  onlySpan,
  parentSpanIdOf,
  sample,
} from './telemetry-fixtures';

const exporter = new InMemorySpanExporter();

/**
 * No interceptor on the class: serveMcp connects MCP with inheritAppConfig, so
 * TelemetryModule's APP_INTERCEPTOR reaches the tools (one server span each, asserted below).
 */
@McpController()
class ResourceLikeTools {
  @Tool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }) })
  echo(@Payload() args: { text: string }) {
    return { content: [{ type: 'text', text: args.text }] };
  }

  /** Answers like an S2SP resource tool in async mode (abstract + resource_url, body tokens in _meta). */
  @Tool({ name: 'alerts', description: 'S2SP-shaped answer.', parameters: z.object({}) })
  alerts() {
    const structured = {
      total_rows: 3,
      columns: ['_row_id', 'event', 'area', 'description'],
      abstract_domains: ['event', 'area'],
      body_domains: ['description'],
      resource_url: 'http://127.0.0.1:1/s2sp/data/tok_abc',
      abstract: [],
    };
    return {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
      _meta: { 's2sp/body_tokens': 420, 's2sp/body_bytes': 1234 },
    };
  }

  @Tool({ name: 'gone', description: 'Tool error with an S2SP code.', parameters: z.object({}) })
  gone() {
    return {
      content: [{ type: 'text', text: 'resource gone' }],
      isError: true,
      _meta: { 's2sp/error_code': 'RESOURCE_GONE' },
    };
  }
}

@Module({
  imports: [TelemetryModule.forRoot({ serviceName: 'weather', spanExporter: exporter, mcpServerId: 'weather' })],
  controllers: [ResourceLikeTools],
})
class McpServerModule {}

describe('MCP tool calls: client span → server span (mcp-nest over Streamable HTTP)', () => {
  let server: RunningMcpServer;
  let agents: Telemetry;
  let client: Client;

  before(async () => {
    server = await serveMcp(McpServerModule, {
      name: 'weather',
      version: '1.0.0',
      host: '127.0.0.1',
      port: 0,
      transport: 'http',
      logger: false,
    });
    agents = await startTelemetry({ serviceName: 'agents', spanExporter: exporter });
    client = new Client({ name: 'telemetry-test', version: '1.0.0' });
    // Plain fetch, no trace headers: the server can only learn the parent from _meta (as on stdio).
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });

  after(async () => {
    await client?.close();
    const http = server?.app.getHttpServer() as import('node:http').Server | undefined;
    http?.closeAllConnections();
    await server?.close();
    await agents?.shutdown();
  });

  beforeEach(() => exporter.reset());

  const call = (name: string, args: Record<string, unknown> = {}) =>
    traceMcpToolCall(agents, 'weather', name, undefined, (meta) =>
      client.callTool({ name, arguments: args, _meta: meta }),
    );

  test('the server span continues the client span through _meta (no trace headers on the HTTP POST)', async () => {
    await agents.withSpan('act', undefined, () => call('echo', { text: 'hi' }));
    await eventually(() => exporter.getFinishedSpans().length >= 3);
    const spans = exporter.getFinishedSpans();
    const act = onlySpan(spans, 'act', 'agents');
    const clientSpan = onlySpan(spans, 'mcp.tools/call echo', 'agents');
    const serverSpan = onlySpan(spans, 'mcp.tools/call echo', 'weather');
    assert.equal(parentSpanIdOf(clientSpan), act.spanContext().spanId);
    assert.equal(parentSpanIdOf(serverSpan), clientSpan.spanContext().spanId);
    assert.equal(serverSpan.spanContext().traceId, act.spanContext().traceId);
    assert.equal(clientSpan.kind, SpanKind.CLIENT);
    assert.equal(serverSpan.kind, SpanKind.SERVER);
    assert.equal(serverSpan.attributes['s2sp.protocol'], 'mcp');
    assert.equal(serverSpan.attributes['mcp.tool.name'], 'echo');
    assert.equal(serverSpan.status.code, SpanStatusCode.UNSET);
  });

  test('S2SP facts of a resource answer on both spans; counters on the server only', async () => {
    await call('alerts');
    await eventually(() => exporter.getFinishedSpans().length >= 2);
    const spans = exporter.getFinishedSpans();
    for (const service of ['agents', 'weather']) {
      const span = onlySpan(spans, 'mcp.tools/call alerts', service);
      assert.equal(span.attributes['s2sp.rows'], 3, service);
      assert.equal(span.attributes['s2sp.abstract_columns'], 2, service);
      assert.equal(span.attributes['s2sp.body_columns'], 1, service);
      assert.equal(span.attributes['s2sp.tokens_saved'], 420, service);
      assert.equal(span.attributes['s2sp.body_bytes'], 1234, service);
    }
    const weatherMetrics = await fetch(`${server.url}/metrics`).then((response) => response.text());
    assert.equal(sample(weatherMetrics, 's2sp_resources_issued_total', { tool: 'alerts' }), 1);
    assert.equal(sample(weatherMetrics, 's2sp_context_tokens_saved_total', { tool: 'alerts' }), 420);
    assert.equal(
      sample(weatherMetrics, 'mcp_tool_call_duration_seconds_count', {
        tool_name: 'alerts',
        server_id: 'weather',
        status: 'success',
      }),
      1,
    );
    assert.equal(
      sample(await agents.scrape(), 's2sp_resources_issued_total', {}),
      undefined,
      'the agents did not issue it',
    );
  });

  test('a tool error result marks both spans ERROR with its S2SP code and counts as an error', async () => {
    const result = await call('gone');
    assert.equal(result.isError, true);
    await eventually(() => exporter.getFinishedSpans().length >= 2);
    for (const service of ['agents', 'weather']) {
      const span = onlySpan(exporter.getFinishedSpans(), 'mcp.tools/call gone', service);
      assert.equal(span.status.code, SpanStatusCode.ERROR, service);
      assert.equal(span.attributes['s2sp.error_code'], 'RESOURCE_GONE', service);
    }
    const weatherMetrics = await fetch(`${server.url}/metrics`).then((response) => response.text());
    assert.equal(
      sample(weatherMetrics, 'protocol_errors_total', { protocol: 'mcp', error_code: 'RESOURCE_GONE', method: 'gone' }),
      1,
    );
    assert.equal(
      sample(await agents.scrape(), 'mcp_tool_call_duration_seconds_count', { tool_name: 'gone', status: 'error' }),
      1,
    );
  });
});

class EchoParams {}

@Injectable()
class GatewayMethods {
  @JsonRpcMethod('demo.echo')
  echo(params: unknown) {
    return params ?? null;
  }

  @JsonRpcMethod('demo.refuse')
  refuse() {
    throw JsonRpcError.rateLimited(3);
  }

  @JsonRpcMethod('demo.crash')
  crash() {
    throw new Error('boom with Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
  }
}
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- keeps the import of EchoParams, which only decorator metadata uses
EchoParams;

describe("JSON-RPC methods through the gateway's engine (context type json-rpc)", () => {
  let app: INestApplication;
  let url: string;

  before(async () => {
    @Module({
      imports: [
        JsonRpcModule.forRoot({}),
        TelemetryModule.forRoot({
          serviceName: 'gateway',
          spanExporter: exporter,
          apiVersion: '2.1',
          ignoredRoutes: ['/rpc', '/metrics'],
          errorCode: (error) => toJsonRpcError(error).error.code,
        }),
      ],
      providers: [GatewayMethods],
    })
    class GatewayModule {}
    app = await NestFactory.create(GatewayModule, { bodyParser: false, logger: false });
    await app.listen(0, '127.0.0.1');
    url = await app.getUrl();
  });

  after(() => app?.close());
  beforeEach(() => exporter.reset());

  const rpc = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json());

  test('jsonrpc.<method> span per call of a batch, child of the caller, attributes: protocol, method, version', async () => {
    await rpc(
      [
        { jsonrpc: '2.0', method: 'demo.echo', params: { a: 1 }, id: 1 },
        { jsonrpc: '2.0', method: 'demo.echo', params: { a: 2 }, id: 2 },
      ],
      { traceparent: CLIENT_TRACEPARENT },
    );
    await eventually(() => exporter.getFinishedSpans().length >= 2);
    const spans = exporter.getFinishedSpans();
    assert.deepEqual(
      spans.map((span) => span.name),
      ['jsonrpc.demo.echo', 'jsonrpc.demo.echo'],
      '/rpc itself is an ignored route',
    );
    for (const span of spans) {
      assert.equal(span.spanContext().traceId, CLIENT_TRACE_ID);
      assert.equal(parentSpanIdOf(span), CLIENT_SPAN_ID);
      assert.equal(span.attributes['s2sp.protocol'], 'json-rpc');
      assert.equal(span.attributes['s2sp.method'], 'demo.echo');
      assert.equal(span.attributes['s2sp.version'], '2.1');
    }
  });

  test('errors carry the code the caller got (resolver option), the exception is redacted, metrics count them', async () => {
    await rpc({ jsonrpc: '2.0', method: 'demo.refuse', id: 1 });
    await rpc({ jsonrpc: '2.0', method: 'demo.crash', id: 2 });
    await eventually(() => exporter.getFinishedSpans().length >= 2);
    const refused = onlySpan(exporter.getFinishedSpans(), 'jsonrpc.demo.refuse');
    const crashed = onlySpan(exporter.getFinishedSpans(), 'jsonrpc.demo.crash');
    assert.equal(refused.attributes['s2sp.error_code'], 5001);
    assert.equal(crashed.attributes['s2sp.error_code'], -32603);
    assert.equal(crashed.status.code, SpanStatusCode.ERROR);
    const exception = JSON.stringify(crashed.events);
    assert.match(exception, /boom with Bearer \[redacted\]/);
    assert.doesNotMatch(exception, /eyJhbGciOiJIUzI1NiJ9/);

    const metrics = await fetch(`${url}/metrics`).then((response) => response.text());
    assert.equal(
      sample(metrics, 'protocol_errors_total', { protocol: 'json-rpc', error_code: '5001', method: 'demo.refuse' }),
      1,
    );
    assert.equal(
      sample(metrics, 'protocol_requests_total', {
        protocol: 'json-rpc',
        method: 'demo.crash',
        status: 'error',
        version: '2.1',
      }),
      1,
    );
    assert.equal(
      sample(metrics, 'protocol_requests_total', { protocol: 'json-rpc', method: 'demo.echo', status: 'success' }),
      2,
      'from the test before',
    );
  });
});
