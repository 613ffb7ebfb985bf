import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Metadata } from '@grpc/grpc-js';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import {
  extractFromHeaders,
  extractFromMcpMeta,
  extractFromMetadata,
  injectIntoMetadata,
  JsonLogger,
  spanDestination,
  telemetryOptionsFromEnv,
  startTelemetry,
  TelemetryModule,
  tracePropagatingFetch,
  traceHeaders,
  withTraceMeta,
  type JsonLogRecord,
} from '../../libs/telemetry/src';
import { CLIENT_SPAN_ID, CLIENT_TRACE_ID, CLIENT_TRACEPARENT, sample } from './telemetry-fixtures';

describe('JsonLogger', () => {
  const lines: string[] = [];
  const logger = new JsonLogger({
    service: 'agents',
    write: (line) => lines.push(line),
    now: () => new Date('2030-01-02T03:04:05.000Z'),
  });
  const last = (): JsonLogRecord => JSON.parse(lines.at(-1)!) as JsonLogRecord;

  test('one JSON line with the active span ids, service, context and level', async () => {
    const telemetry = await startTelemetry({
      serviceName: 'agents',
      spanExporter: new InMemorySpanExporter(),
      metrics: false,
    });
    let spanIds: { traceId: string; spanId: string } | undefined;
    await telemetry.withSpan('plan', undefined, (span) => {
      spanIds = span.spanContext();
      logger.log('planning', 'TaskRuntime');
    });
    await telemetry.shutdown();
    assert.equal(lines.at(-1)!.endsWith('\n'), true);
    assert.deepEqual(last(), {
      time: '2030-01-02T03:04:05.000Z',
      level: 'INFO',
      service: 'agents',
      context: 'TaskRuntime',
      message: 'planning',
      trace_id: spanIds!.traceId,
      span_id: spanIds!.spanId,
    });
    logger.warn('outside any span');
    assert.equal(last().trace_id, undefined);
    assert.equal(last().level, 'WARN');
  });

  test('tracing off: an incoming traceparent still reaches the log line', () => {
    context.with(extractFromHeaders({ traceparent: CLIENT_TRACEPARENT }), () => logger.debug('passing through'));
    assert.equal(last().trace_id, CLIENT_TRACE_ID);
    assert.equal(last().span_id, CLIENT_SPAN_ID);
  });

  test('no secrets: tokens in messages, stacks and fields are masked; object messages become fields', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
    logger.error(
      `call failed: Bearer ${jwt}`,
      `Error: x\n    at fetch (http://h/s2sp/data/tok_capability_1)`,
      'McpClient',
    );
    const record = last();
    assert.equal(record.level, 'ERROR');
    assert.equal(record.context, 'McpClient');
    assert.doesNotMatch(lines.at(-1)!, /eyJhbGci|tok_capability_1/);
    assert.match(String(record.message), /Bearer \[redacted\]/);
    assert.match(String(record.stack), /\/s2sp\/data\/\[redacted\]/);

    logger.log({ message: 'step done', task_id: 't-1', token: 'raw-secret', trace_id: 'forged' }, 'Steps');
    const fields = last();
    assert.equal(fields.message, 'step done');
    assert.equal(fields.task_id, 't-1');
    assert.equal(fields.token, '[redacted]');
    assert.equal(fields.trace_id, undefined, 'a message cannot forge the trace id');
  });

  test('levels filter what is written', () => {
    const quiet: string[] = [];
    const filtered = new JsonLogger({ service: 's', levels: ['error'], write: (line) => quiet.push(line) });
    filtered.log('dropped');
    filtered.error('kept');
    assert.equal(quiet.length, 1);
    assert.equal(JSON.parse(quiet[0]).message, 'kept');
  });
});

describe('trace context carriers', () => {
  test('gRPC metadata, HTTP headers and MCP _meta carry the same context', async () => {
    const telemetry = await startTelemetry({
      serviceName: 'carrier',
      spanExporter: new InMemorySpanExporter(),
      metrics: false,
    });
    await telemetry.withSpan('outer', undefined, (span) => {
      const ids = span.spanContext();
      const fromMetadata = trace.getSpanContext(extractFromMetadata(injectIntoMetadata(new Metadata())));
      const fromHeaders = trace.getSpanContext(extractFromHeaders(traceHeaders()));
      const meta = withTraceMeta({ 's2sp/deadline_ms': 5 });
      const fromMeta = trace.getSpanContext(extractFromMcpMeta(meta));
      for (const extracted of [fromMetadata, fromHeaders, fromMeta]) {
        assert.equal(extracted?.traceId, ids.traceId);
        assert.equal(extracted?.spanId, ids.spanId);
        assert.equal(extracted?.isRemote, true);
      }
      assert.equal(meta['s2sp/deadline_ms'], 5, 'other _meta keys are kept');
    });
    assert.deepEqual(traceHeaders(), {}, 'nothing to propagate outside a span');
    await telemetry.shutdown();
  });

  test('tracePropagatingFetch adds traceparent inside a span and nothing outside', async () => {
    const seen: Array<string | undefined> = [];
    const server = createServer((request: IncomingMessage, response) => {
      seen.push(request.headers.traceparent as string | undefined);
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const tracedFetch = tracePropagatingFetch();
    const telemetry = await startTelemetry({
      serviceName: 'fetcher',
      spanExporter: new InMemorySpanExporter(),
      metrics: false,
    });
    let traceId = '';
    await telemetry.withSpan('call', undefined, async (span) => {
      traceId = span.spanContext().traceId;
      await (await tracedFetch(url, { headers: { 'x-other': '1' } })).text();
    });
    await (await tracedFetch(url)).text();
    server.close();
    await telemetry.shutdown();
    assert.match(seen[0] ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    assert.equal(seen[1], undefined);
  });
});

describe('export modes', () => {
  test('no exporter and no OTLP endpoint: tracing off, no spans, incoming context passed through', async () => {
    assert.equal(spanDestination({ serviceName: 'x' }).kind, 'off');
    assert.equal(
      spanDestination({ serviceName: 'x', otlpTracesUrl: 'http://c:4318/v1/traces', tracing: false }).kind,
      'off',
    );
    const telemetry = await startTelemetry({ serviceName: 'quiet' });
    assert.equal(telemetry.tracingEnabled, false);
    assert.equal(telemetry.spanDestination, 'off');
    await context.with(extractFromHeaders({ traceparent: CLIENT_TRACEPARENT }), () =>
      telemetry.withSpan('step', { a: 1 }, (span) => {
        assert.equal(span.isRecording(), false);
        // Not a new span: outgoing calls carry the caller's context unchanged.
        assert.equal(traceHeaders().traceparent, CLIENT_TRACEPARENT);
      }),
    );
    await telemetry.shutdown();
  });

  test('telemetryOptionsFromEnv: the OTEL_* variables an app passes on as options', () => {
    assert.deepEqual(telemetryOptionsFromEnv({}), {});
    assert.deepEqual(
      telemetryOptionsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/', OTEL_METRIC_EXPORT_INTERVAL: '5000' }),
      {
        otlpTracesUrl: 'http://c:4318/v1/traces',
        otlpMetricsUrl: 'http://c:4318/v1/metrics',
        otlpMetricsIntervalMs: 5_000,
      },
    );
    assert.deepEqual(
      telemetryOptionsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t/traces',
        OTEL_METRICS_EXPORTER: 'none',
      }),
      { otlpTracesUrl: 'http://t/traces' },
    );
    assert.deepEqual(
      telemetryOptionsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
      {
        otlpMetricsUrl: 'http://c:4318/v1/metrics',
      },
    );
    assert.deepEqual(
      telemetryOptionsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
      {
        tracing: false,
        metrics: false,
      },
    );
  });

  test('otlpTracesUrl set (OTEL_EXPORTER_OTLP_ENDPOINT for the apps): spans are POSTed to it', async () => {
    const received: Array<{ method?: string; url?: string; bytes: number }> = [];
    const collector = createServer((request, response) => {
      let bytes = 0;
      request.on('data', (chunk: Buffer) => (bytes += chunk.length));
      request.on('end', () => {
        received.push({ method: request.method, url: request.url, bytes });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    try {
      const telemetry = await startTelemetry({
        serviceName: 'exported',
        ...telemetryOptionsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/` }),
        metrics: false,
      });
      assert.equal(telemetry.spanDestination, 'otlp');
      assert.equal(telemetry.tracingEnabled, true);
      await telemetry.withSpan('exported-span', undefined, () => undefined);
      await telemetry.shutdown(); // flushes the batch
      const traces = received.filter((request) => request.url === '/v1/traces');
      assert.equal(traces.length, 1);
      assert.equal(traces[0].method, 'POST');
      assert.ok(traces[0].bytes > 0);
    } finally {
      collector.close();
    }
  });
});

@Controller()
class CountedController {
  @Get('items/:id')
  item(@Param('id') id: string) {
    if (id === 'missing') throw new NotFoundException();
    return { id };
  }
}

describe('Prometheus metrics', () => {
  const closers: Array<() => Promise<unknown>> = [];
  after(async () => {
    for (const close of closers) await close();
  });

  test('GET /metrics of an HTTP app counts its requests by route, status and error code', async () => {
    @Module({
      imports: [TelemetryModule.forRoot({ serviceName: 'http-app', apiVersion: '1' })],
      controllers: [CountedController],
    })
    class HttpAppModule {}
    const app = await NestFactory.create(HttpAppModule, { logger: false });
    closers.push(() => app.close());
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    await fetch(`${url}/items/1`);
    await fetch(`${url}/items/2`);
    await fetch(`${url}/items/missing`);
    const response = await fetch(`${url}/metrics`);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    assert.equal(
      sample(text, 'protocol_requests_total', {
        protocol: 'http',
        method: 'GET /items/:id',
        status: 'success',
        version: '1',
      }),
      2,
    );
    assert.equal(
      sample(text, 'protocol_requests_total', { protocol: 'http', method: 'GET /items/:id', status: 'error' }),
      1,
    );
    assert.equal(
      sample(text, 'protocol_errors_total', { protocol: 'http', error_code: 'HTTP_404', method: 'GET /items/:id' }),
      1,
    );
    assert.equal(
      sample(text, 'protocol_request_duration_seconds_count', { protocol: 'http', method: 'GET /items/:id' }),
      3,
    );
    assert.equal(
      sample(text, 'protocol_requests_total', { method: 'GET /metrics' }),
      undefined,
      'scrapes are not counted',
    );
    assert.match(text, /service_name="http-app"/);
  });

  test('standalone /metrics server (gRPC-only apps); apps in one process keep their own numbers; circuit gauge', async () => {
    const agents = await startTelemetry({ serviceName: 'agents', metricsPort: 0 });
    const other = await startTelemetry({ serviceName: 'other' });
    closers.push(
      () => agents.shutdown(),
      () => other.shutdown(),
    );
    agents.metrics.recordRequest('grpc', 'AgentService/SubmitTask', '1', 0.02);
    agents.metrics.dataPlaneFetch('ok', 'consumer', 2048);
    agents.metrics.dataPlaneFetch('gone', 'consumer');
    let state: 'closed' | 'open' = 'closed';
    let reads = 0;
    const stop = agents.metrics.observeCircuitBreaker('mcp:weather', () => {
      reads += 1;
      return state;
    });
    other.metrics.recordRequest('grpc', 'AgentService/SubmitTask', '1', 0.02);
    other.metrics.recordRequest('grpc', 'AgentService/SubmitTask', '1', 0.02);

    const scrape = () => fetch(agents.metricsUrl!).then((response) => response.text());
    const text = await scrape();
    assert.equal(
      sample(text, 'protocol_requests_total', {
        protocol: 'grpc',
        method: 'AgentService/SubmitTask',
        status: 'success',
      }),
      1,
    );
    assert.equal(sample(text, 's2sp_fetches_total', { result: 'ok', side: 'consumer' }), 1);
    assert.equal(sample(text, 's2sp_fetches_total', { result: 'gone', side: 'consumer' }), 1);
    assert.equal(sample(text, 's2sp_body_bytes_total', { side: 'consumer' }), 2048);
    assert.equal(sample(text, 'circuit_breaker_state', { service: 'mcp:weather' }), 0);
    state = 'open';
    assert.equal(sample(await scrape(), 'circuit_breaker_state', { service: 'mcp:weather' }), 2);
    stop();
    const readsBefore = reads;
    await scrape();
    assert.equal(reads, readsBefore, 'a stopped breaker is no longer read');
    assert.equal(sample(await other.scrape(), 'protocol_requests_total', { method: 'AgentService/SubmitTask' }), 2);
    assert.equal((await fetch(agents.metricsUrl!.replace('/metrics', '/other'))).status, 404);
  });

  test('metrics: false — nothing recorded, scrape empty', async () => {
    const telemetry = await startTelemetry({ serviceName: 'off', metrics: false });
    telemetry.metrics.recordRequest('grpc', 'x', '1', 1);
    assert.equal(await telemetry.scrape(), '');
    await telemetry.shutdown();
  });
});
