import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Body, Controller, Module, Post } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { UNREAD_BODY_MEDIA_TYPE } from '../../libs/platform/src/unread-request-body';
import { WeatherServerModule } from '../../apps/weather-server/src/weather-server.module';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, weatherConfig } from '../support/stack';
import { bearerFor, TEST_SUBJECT } from '../support/tokens';

/** A route of the app's own, next to the data plane: Fastify parses its JSON as usual. */
@Controller('echo')
class EchoController {
  @Post()
  echo(@Body() body: unknown): { received: unknown } {
    return { received: body };
  }
}

const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

/**
 * What only Fastify needs checking: the data plane reads its own body (Fastify's
 * parser and its 1 MiB bodyLimit stay out of it) while the app's other JSON
 * routes keep Fastify's parsing; the data-plane telemetry is recorded.
 * The data-plane behaviour itself runs on both platforms in data-plane.test.ts.
 */
describe('S2spModule on Fastify beside the app’s own JSON routes', () => {
  const exporter = new InMemorySpanExporter();
  let weather: RunningMcpServer;
  let agent: Client;

  before(async () => {
    const config = weatherConfig({
      platform: 'fastify',
      limits: { maxRequestBytes: MAX_REQUEST_BYTES },
      telemetry: { spanExporter: exporter },
    });
    let url = '';
    @Module({ imports: [WeatherServerModule.forRoot(config, () => url)], controllers: [EchoController] })
    class WeatherWithEchoModule {}
    weather = await serveMcp(WeatherWithEchoModule, {
      name: 'weather-server',
      version: '0',
      host: config.host,
      port: 0,
      transport: 'http',
      httpAdapter: new FastifyAdapter(),
      auth: { audience: 'weather-server' },
      logger: config.logger,
    });
    url = weather.url;
    agent = await connectMcp(weather.url);
  });
  after(async () => {
    await agent?.close();
    await weather?.close();
  });

  const issue = async (): Promise<{ resource_url: string }> =>
    jsonOf(await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } })) as never;

  test('another JSON route of the app still gets its body parsed by Fastify, and Fastify’s error for malformed JSON', async () => {
    const parsed = await fetch(`${weather.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":[1,2]}',
    });
    assert.equal(parsed.status, 201);
    assert.deepEqual(await parsed.json(), { received: { a: [1, 2] } });
    const malformed = await fetch(`${weather.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    assert.equal(malformed.status, 400);
    const marker = await fetch(`${weather.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': UNREAD_BODY_MEDIA_TYPE },
      body: '{}',
    });
    assert.equal(marker.status, 415, 'the media type standing for an unread body is not taken from clients');
  });

  test('the data plane reads its body under maxRequestBytes, not Fastify’s bodyLimit, and names its own limit beyond it', async () => {
    const resource = await issue();
    const padded = `{"row_ids": [0]}${' '.repeat(1_500_000)}`;
    const served = await fetchResource(resource.resource_url, padded);
    assert.equal(served.status, 200, 'a body over Fastify’s 1 MiB default but within maxRequestBytes is served');
    assert.deepEqual(
      served.json.body.map((row: { _row_id: number }) => row._row_id),
      [0],
    );

    const tooLarge = await fetchResource(
      (await issue()).resource_url,
      `{"row_ids": [0]}${' '.repeat(MAX_REQUEST_BYTES)}`,
    );
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.json.error.code, 'PAYLOAD_TOO_LARGE');
    assert.match(
      tooLarge.json.error.message,
      new RegExp(`larger than ${MAX_REQUEST_BYTES} bytes \\(limit maxRequestBytes\\)`),
    );
  });

  test('/mcp reads its own body too, and the MCP handlers see the Content-Type the client sent', async () => {
    const response = await fetch(`${weather.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: await bearerFor({ audience: 'weather-server' }),
        'mcp-protocol-version': '2026-07-28',
      },
      body: '{"not":"json-rpc"}',
    });
    assert.equal(
      response.status,
      400,
      'answered by the MCP handler of the modern era, not refused as an unsupported media type',
    );
    assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32600);
  });

  test('a served fetch is an s2sp.data.serve span with its rows, bytes and the caller the auth middleware verified', async () => {
    exporter.reset();
    const resource = await issue();
    const served = await fetchResource(resource.resource_url, { row_ids: [0, 1] });
    assert.equal(served.status, 200);
    const span = await eventuallyFind(() =>
      exporter.getFinishedSpans().find((candidate) => candidate.name === 's2sp.data.serve'),
    );
    assert.equal(span.attributes['s2sp.fetch.result'], 'ok');
    assert.equal(span.attributes['s2sp.rows'], 2);
    assert.ok(Number(span.attributes['s2sp.body_bytes']) > 0);
    assert.equal(span.attributes['s2sp.caller_id'], TEST_SUBJECT);
  });

  test('GET /health answers on Fastify', async () => {
    const response = await fetch(`${weather.url}/health`);
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { status: string }).status, 'ok');
  });
});

async function eventuallyFind<T>(find: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail('not found in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
