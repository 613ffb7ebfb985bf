import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { JsonRpcModule } from '@s2sp/json-rpc';
import { postRaw, Probe, SampleMethods } from './jsonrpc-test-app';

/** POST /rpc on Fastify is answered from its route's onRequest hook: what of the app's own hooks applies. */
describe("POST /rpc and the Fastify app's hooks", () => {
  let app: INestApplication;
  let url: string;
  const seen: string[] = [];

  before(async () => {
    @Module({ imports: [JsonRpcModule.forRoot()], providers: [Probe, SampleMethods] })
    class HooksAppModule {}
    app = await NestFactory.create(HooksAppModule, new FastifyAdapter(), { logger: false });
    const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
    fastify.addHook('onRequest', (request, reply, done) => {
      seen.push(`onRequest ${request.url}`);
      reply.raw.setHeader('x-request-hook', 'ran');
      void reply.header('x-reply-header', 'kept');
      done();
    });
    fastify.addHook('preHandler', (request, _reply, done) => {
      seen.push(`preHandler ${request.url}`);
      done();
    });
    fastify.addHook('onResponse', (request, _reply, done) => {
      seen.push(`onResponse ${request.url}`);
      done();
    });
    await app.listen(0, '127.0.0.1');
    url = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/rpc`;
  });

  after(() => app.close());

  test('app-wide onRequest and onResponse hooks run, their reply headers included; the body hooks do not', async () => {
    seen.length = 0;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'subtract', params: { minuend: 42, subtrahend: 23 } }),
    });
    assert.equal(response.headers.get('x-request-hook'), 'ran');
    assert.equal(response.headers.get('x-reply-header'), 'kept', 'headers set with reply.header() survive the hijack');
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', result: 19, id: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, ['onRequest /rpc', 'onResponse /rpc']);
  });

  test("a body no content-type parser would take is still the engine's to judge", async () => {
    const reply = await postRaw(url, '{"jsonrpc": "2.0", "method": "subtract", "params": [1, 2', {
      'content-type': 'text/plain',
    });
    assert.equal(reply.status, 200);
    assert.deepEqual((reply.json as { error: { code: number } }).error.code, -32700);
  });
});
