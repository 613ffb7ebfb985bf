import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Module,
  Param,
  Post,
  type INestApplication,
  type INestMicroservice,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GrpcMethod, RpcException } from '@nestjs/microservices';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { BoundPortGrpcServer } from '../../libs/agents/src/grpc/bound-port-grpc-server';
import { PROTO_FILES, PROTO_LOADER_OPTIONS } from '../../libs/contracts/src';
import { Telemetry, TelemetryModule, traceDataPlaneFetch, traceGrpcCall } from '../../libs/telemetry/src';
import {
  CLIENT_SPAN_ID,
  CLIENT_TRACE_ID,
  CLIENT_TRACEPARENT,
  eventually,
  onlySpan,
  parentSpanIdOf,
  serviceOf,
} from './telemetry-fixtures';

/**
 * Three Nest apps in one process, each with its own TelemetryModule and one
 * shared in-memory exporter: an HTTP "front" that calls a gRPC "back" and
 * the data plane of a "resource" server. One trace must span all of them.
 */
const exporter = new InMemorySpanExporter();
const GRPC_URL = Symbol('grpc-url');
const RESOURCE_URL = Symbol('resource-url');

type Unary = (
  request: unknown,
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, value?: any) => void,
) => grpc.ClientUnaryCall;

@Controller()
class BackController {
  @GrpcMethod('ToolService', 'ListTools')
  listTools(request: { cursor?: string }) {
    if (request.cursor === 'fail') throw new RpcException({ code: grpc.status.NOT_FOUND, message: 'no such cursor' });
    return { tools: [], next_cursor: '' };
  }
}

@Controller()
class FrontController {
  private client: grpc.Client & Record<string, Unary>;

  constructor(
    private readonly telemetry: Telemetry,
    @Inject(GRPC_URL) grpcUrl: string,
    @Inject(RESOURCE_URL) private readonly resourceUrl: () => string,
  ) {
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS })) as any;
    this.client = new pkg.s2sp.v1.ToolService(grpcUrl, grpc.credentials.createInsecure());
  }

  @Get('tools/:cursor')
  async tools(@Param('cursor') cursor: string): Promise<unknown> {
    return traceGrpcCall(
      this.telemetry,
      's2sp.v1.ToolService',
      'ListTools',
      new grpc.Metadata(),
      (metadata) =>
        new Promise((resolve, reject) =>
          this.client.ListTools({ cursor }, metadata, (error, value) => (error ? reject(error) : resolve(value))),
        ),
    ).catch((error: grpc.ServiceError) => ({ failed: error.code }));
  }

  @Get('fetch')
  async fetchRows(): Promise<unknown> {
    const url = `${this.resourceUrl()}/s2sp/data/tok_secret_capability_123`;
    const rows = await traceDataPlaneFetch(this.telemetry, url, 2, async (headers) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ row_ids: [0, 1] }),
      });
      return ((await response.json()) as { body: unknown[] }).body;
    });
    return { rows: rows.length };
  }

  onModuleDestroy(): void {
    this.client.close();
  }
}

@Controller('s2sp')
class FakeDataPlaneController {
  /** Same route as libs/s2sp's DataPlaneController. */
  @Post('data/:token')
  @HttpCode(200)
  serve(@Param('token') _token: string, @Body() body: { row_ids: number[] }) {
    return {
      body: body.row_ids.map((id) => ({ _row_id: id, detail: `row ${id}` })),
      total_rows: body.row_ids.length,
      columns_returned: ['_row_id', 'detail'],
    };
  }
}

describe('one trace across HTTP, gRPC and the data plane (three apps, one process)', () => {
  let back: INestMicroservice;
  let front: INestApplication;
  let resource: INestApplication;
  let frontUrl: string;
  let resourceUrl = '';

  before(async () => {
    @Module({
      imports: [TelemetryModule.forRoot({ serviceName: 'back', spanExporter: exporter })],
      controllers: [BackController],
    })
    class BackModule {}
    const grpcServer = new BoundPortGrpcServer({
      package: 's2sp.v1',
      protoPath: [...PROTO_FILES],
      url: '127.0.0.1:0',
      loader: { ...PROTO_LOADER_OPTIONS },
    });
    back = await NestFactory.createMicroservice(BackModule, { strategy: grpcServer, logger: false });
    await back.listen();
    const grpcUrl = `127.0.0.1:${grpcServer.boundPort}`;

    @Module({
      imports: [TelemetryModule.forRoot({ serviceName: 'resource', spanExporter: exporter })],
      controllers: [FakeDataPlaneController],
    })
    class ResourceModule {}
    resource = await NestFactory.create(ResourceModule, { logger: false });
    await resource.listen(0, '127.0.0.1');
    resourceUrl = await resource.getUrl();

    @Module({
      imports: [TelemetryModule.forRoot({ serviceName: 'front', spanExporter: exporter })],
      controllers: [FrontController],
      providers: [
        { provide: GRPC_URL, useValue: grpcUrl },
        { provide: RESOURCE_URL, useValue: () => resourceUrl },
      ],
    })
    class FrontModule {}
    front = await NestFactory.create(FrontModule, { logger: false });
    await front.listen(0, '127.0.0.1');
    frontUrl = await front.getUrl();
  });

  after(async () => {
    await front?.close();
    await resource?.close();
    await back?.close();
  });

  beforeEach(() => exporter.reset());

  test('HTTP server → gRPC client → gRPC server: parent/child in one trace, each span with its app', async () => {
    const response = await fetch(`${frontUrl}/tools/start`, { headers: { traceparent: CLIENT_TRACEPARENT } });
    assert.equal(response.status, 200);
    await eventually(() => exporter.getFinishedSpans().length >= 3);
    const spans = exporter.getFinishedSpans();

    const http = onlySpan(spans, 'GET /tools/:cursor', 'front');
    const client = onlySpan(spans, 'grpc.ToolService/ListTools', 'front');
    const server = onlySpan(spans, 'grpc.ToolService/ListTools', 'back');
    for (const span of [http, client, server]) assert.equal(span.spanContext().traceId, CLIENT_TRACE_ID);
    assert.equal(parentSpanIdOf(http), CLIENT_SPAN_ID, 'the HTTP span continues the caller');
    assert.equal(parentSpanIdOf(client), http.spanContext().spanId);
    assert.equal(parentSpanIdOf(server), client.spanContext().spanId, 'traceparent crossed in gRPC metadata');
    assert.equal(http.kind, SpanKind.SERVER);
    assert.equal(client.kind, SpanKind.CLIENT);
    assert.equal(server.kind, SpanKind.SERVER);
    assert.equal(server.attributes['s2sp.protocol'], 'grpc');
    assert.equal(server.attributes['rpc.service'], 's2sp.v1.ToolService');
    assert.equal(server.attributes['s2sp.method'], 'ToolService/ListTools');
    assert.equal(http.attributes['http.response.status_code'], 200);
  });

  test('a gRPC error is recorded on both sides with its code', async () => {
    const response = await fetch(`${frontUrl}/tools/fail`);
    assert.deepEqual(await response.json(), { failed: grpc.status.NOT_FOUND });
    await eventually(() => exporter.getFinishedSpans().length >= 3);
    const spans = exporter.getFinishedSpans();
    const server = onlySpan(spans, 'grpc.ToolService/ListTools', 'back');
    const client = onlySpan(spans, 'grpc.ToolService/ListTools', 'front');
    assert.equal(server.status.code, SpanStatusCode.ERROR);
    assert.equal(server.attributes['s2sp.error_code'], grpc.status.NOT_FOUND);
    assert.equal(client.status.code, SpanStatusCode.ERROR);
    assert.equal(client.attributes['s2sp.error_code'], grpc.status.NOT_FOUND);
    assert.ok(server.events.some((event) => event.name === 'exception'));
    // Without an incoming traceparent the HTTP span starts a new trace, which gRPC continues.
    assert.equal(server.spanContext().traceId, client.spanContext().traceId);
    assert.notEqual(server.spanContext().traceId, CLIENT_TRACE_ID);
  });

  test('s2sp.data.fetch on the consumer is the parent of s2sp.data.serve on the resource server', async () => {
    const response = await fetch(`${frontUrl}/fetch`, { headers: { traceparent: CLIENT_TRACEPARENT } });
    assert.deepEqual(await response.json(), { rows: 2 });
    await eventually(() => exporter.getFinishedSpans().length >= 3);
    const spans = exporter.getFinishedSpans();
    const fetchSpan = onlySpan(spans, 's2sp.data.fetch', 'front');
    const serveSpan = onlySpan(spans, 's2sp.data.serve', 'resource');
    assert.equal(serveSpan.spanContext().traceId, CLIENT_TRACE_ID);
    assert.equal(parentSpanIdOf(serveSpan), fetchSpan.spanContext().spanId);
    assert.equal(fetchSpan.attributes['s2sp.rows'], 2);
    assert.equal(fetchSpan.attributes['server.address'], resourceUrl);
    assert.equal(serveSpan.attributes['s2sp.rows'], 2);
    assert.equal(serveSpan.attributes['s2sp.body_columns'], 1);
    assert.ok(Number(serveSpan.attributes['s2sp.body_bytes']) > 0);
    assert.equal(serveSpan.attributes['http.route'], '/s2sp/data/:token');
    for (const span of spans) {
      assert.doesNotMatch(
        JSON.stringify(span.attributes),
        /tok_secret_capability_123/,
        `${span.name} must not carry the capability`,
      );
    }
    assert.equal(serviceOf(serveSpan), 'resource');
  });
});
