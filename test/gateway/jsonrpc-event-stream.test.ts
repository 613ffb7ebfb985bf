import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { JsonRpcError, JsonRpcMethod, JsonRpcModule } from '@s2sp/json-rpc';
import { JsonRpcEventStream, type JsonRpcStreamEvent } from '@s2sp/json-rpc/internal';
import { parseSse } from '../support/sse';
import { HTTP_ADAPTERS, postRaw } from './jsonrpc-test-app';

/** count.stream: `n` events, then ends, or fails as `fail` says (a JsonRpcError, or an unexpected Error). */
@Injectable()
class CountingMethods {
  @JsonRpcMethod('count.stream', { streaming: true })
  count(params: { n: number; fail?: 'expected' | 'unexpected' }): JsonRpcEventStream {
    async function* events(): AsyncGenerator<JsonRpcStreamEvent> {
      for (let index = 1; index <= params.n; index++) yield { event: 'tick', result: { index, text: 'two\nlines' } };
      if (params.fail === 'expected') throw JsonRpcError.deadlineExceeded('test.stream', { deadline_ms: 1 });
      if (params.fail === 'unexpected') throw new Error('secret internals at /srv/app.js:42');
    }
    return new JsonRpcEventStream(events(), () => undefined);
  }
}

for (const adapter of HTTP_ADAPTERS) {
  describe(`streaming JSON-RPC methods as Server-Sent Events (${adapter})`, () => {
    let app: INestApplication;
    let url: string;

    before(async () => {
      @Module({ imports: [JsonRpcModule.forRoot()], providers: [CountingMethods] })
      class StreamingModule {}
      app =
        adapter === 'fastify'
          ? await NestFactory.create(StreamingModule, new FastifyAdapter(), { logger: false })
          : await NestFactory.create(StreamingModule, { bodyParser: false, logger: false });
      await app.listen(0, '127.0.0.1');
      url = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/rpc`;
    });
    after(async () => app?.close());

    const call = (params: unknown, headers: Record<string, string> = { accept: 'text/event-stream' }) =>
      postRaw(url, JSON.stringify({ jsonrpc: '2.0', id: 'c1', method: 'count.stream', params }), headers);

    test('each event is a JSON-RPC response with the call id, one line of data; the response ends with the stream', async () => {
      const answer = await call({ n: 3 });
      assert.equal(answer.status, 200);
      assert.match(answer.contentType ?? '', /^text\/event-stream/);
      const { events, rest } = parseSse(answer.text);
      assert.equal(rest, '');
      assert.deepEqual(
        events.map((event) => [event.event, event.data]),
        [1, 2, 3].map((index) => ['tick', { jsonrpc: '2.0', result: { index, text: 'two\nlines' }, id: 'c1' }]),
      );
    });

    test('a failure part-way is a last `error` event with the JSON-RPC error; an unexpected one says nothing of the internals', async () => {
      const expected = parseSse((await call({ n: 1, fail: 'expected' })).text).events;
      assert.deepEqual(
        expected.map((event) => event.event),
        ['tick', 'error'],
      );
      assert.equal(expected[1].data.error.code, -32000);
      assert.equal(expected[1].data.id, 'c1');

      const unexpected = parseSse((await call({ n: 0, fail: 'unexpected' })).text).events;
      assert.deepEqual(
        unexpected.map((event) => event.event),
        ['error'],
      );
      assert.equal(unexpected[0].data.error.code, -32603);
      assert.doesNotMatch(JSON.stringify(unexpected[0].data), /secret|app\.js/);
    });

    test('Accept must take text/event-stream (among others is fine)', async () => {
      const refused = await call({ n: 1 }, {});
      assert.equal((refused.json as { error: { code: number } }).error.code, -32600);
      const accepted = await call({ n: 1 }, { accept: 'application/json, text/event-stream;q=0.9' });
      assert.match(accepted.contentType ?? '', /^text\/event-stream/);
    });
  });
}
