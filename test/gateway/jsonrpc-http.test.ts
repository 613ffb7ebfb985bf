import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { HTTP_ADAPTERS, postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

const MAX_BODY = 4096;

/** Streams a body without Content-Length (chunked), as fetch cannot be told to. */
function postChunked(url: string, chunks: string[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

for (const adapter of HTTP_ADAPTERS)
  describe(`HTTP transport on ${adapter}`, () => {
    let server: TestApp;
    before(async () => (server = await startTestApp({ maxBodyBytes: MAX_BODY }, adapter)));
    after(async () => server.close());

    test('a body over maxBodyBytes (with Content-Length) is a JSON-RPC error, not an HTML page', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', method: 'get_data', params: { pad: 'x'.repeat(MAX_BODY) }, id: 1 });
      const reply = await postRaw(server.url, big);
      assert.equal(reply.status, 200);
      assert.equal(reply.contentType, 'application/json');
      const body = reply.json as any;
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /4096 bytes/);
      assert.equal(body.error.data.max_body_bytes, MAX_BODY);
    });

    test('a chunked body that grows over the limit is refused the same way', async () => {
      const chunk = 'x'.repeat(1024);
      const reply = await postChunked(server.url, [
        '{"jsonrpc":"2.0","method":"get_data","id":1,"pad":"',
        ...Array(8).fill(chunk),
        '"}',
      ]);
      assert.equal(reply.status, 200);
      assert.equal(JSON.parse(reply.text).error.data.max_body_bytes, MAX_BODY);
    });

    test('a chunked body under the limit is served', async () => {
      const reply = await postChunked(server.url, ['{"jsonrpc":"2.0",', '"method":"get_data",', '"id":1}']);
      assert.deepEqual(JSON.parse(reply.text), { jsonrpc: '2.0', result: ['hello', 5], id: 1 });
    });

    test('the server keeps serving after an oversized body', async () => {
      await postRaw(server.url, 'x'.repeat(MAX_BODY * 4));
      const reply = await postRaw(server.url, '{"jsonrpc":"2.0","method":"get_data","id":2}');
      assert.deepEqual(reply.json, { jsonrpc: '2.0', result: ['hello', 5], id: 2 });
    });

    test('an empty body, invalid UTF-8 and a non-JSON content type', async () => {
      const parseError = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null };
      assert.deepEqual((await postRaw(server.url, '')).json, parseError);
      assert.deepEqual((await postRaw(server.url, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).json, parseError);
      const textPlain = await postRaw(server.url, '{"jsonrpc":"2.0","method":"get_data","id":3}', {
        'content-type': 'text/plain',
      });
      assert.deepEqual(textPlain.json, { jsonrpc: '2.0', result: ['hello', 5], id: 3 });
    });

    test('a UTF-8 byte order mark is tolerated', async () => {
      const withBom = new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...Buffer.from('{"jsonrpc":"2.0","method":"get_data","id":4}'),
      ]);
      assert.deepEqual((await postRaw(server.url, withBom)).json, { jsonrpc: '2.0', result: ['hello', 5], id: 4 });
    });

    test('a JSON scalar payload is an invalid request', async () => {
      for (const payload of ['1', '"call"', 'null', 'true']) {
        assert.deepEqual((await postRaw(server.url, payload)).json, {
          jsonrpc: '2.0',
          error: { code: -32600, message: 'Invalid Request' },
          id: null,
        });
      }
    });

    test('a single notification answers 204 with no body and no content type', async () => {
      const reply = await postRaw(server.url, '{"jsonrpc":"2.0","method":"update","params":[1]}');
      assert.equal(reply.status, 204);
      assert.equal(reply.text, '');
    });

    test('ids of every kind come back unchanged, including null', async () => {
      for (const id of ['abc', '', 0, -5, 1.5, 9007199254740991, null]) {
        const reply = await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', method: 'get_data', id }));
        assert.deepEqual(reply.json, { jsonrpc: '2.0', result: ['hello', 5], id });
      }
    });

    test('a traceparent header becomes error.data.trace_id and ctx.traceId', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const headers = { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, 'x-test': 'hello' };
      const missing = await postRaw(server.url, '{"jsonrpc":"2.0","method":"missing","id":1}', headers);
      assert.deepEqual((missing.json as any).error, {
        code: -32601,
        message: 'Method not found',
        data: { trace_id: traceId },
      });
      const echo = await postRaw(server.url, '{"jsonrpc":"2.0","method":"context.echo","id":"e"}', headers);
      const result = (echo.json as any).result;
      assert.equal(result.trace_id, traceId);
      assert.equal(result.header, 'hello');
      assert.equal(result.caller, 'anonymous');
      assert.equal(result.id, 'e');
      assert.equal(result.method, 'context.echo');
    });
  });
