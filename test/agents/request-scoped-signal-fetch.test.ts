import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { requestScopedSignalFetch } from '../../libs/agents/src/mcp/request-scoped-signal-fetch';

describe('requestScopedSignalFetch: one long-lived signal for many requests', () => {
  let server: Server;
  let url = '';

  before(async () => {
    server = createServer((request, response) => {
      if (request.url === '/slow') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: first\n\n'); // then nothing: the stream stays open
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('answered requests leave no listener of their own on the shared signal (plain fetch leaves one per request)', async () => {
    const shared = new AbortController();
    const scoped = requestScopedSignalFetch();
    for (let index = 0; index < 50; index++) {
      const response = await scoped(`${url}/json`, { signal: shared.signal });
      assert.deepEqual(await response.json(), { ok: true });
    }
    assert.equal(getEventListeners(shared.signal, 'abort').length, 1);

    // The baseline this guards against: undici keeps a listener per request on the caller's signal.
    const plain = new AbortController();
    for (let index = 0; index < 20; index++) await (await fetch(`${url}/json`, { signal: plain.signal })).json();
    assert.ok(
      getEventListeners(plain.signal, 'abort').length > 0,
      'plain fetch no longer leaks: this wrapper may be unnecessary',
    );
  });

  test('aborting the shared signal still aborts a request whose body is being read', async () => {
    const shared = new AbortController();
    const response = await requestScopedSignalFetch()(`${url}/slow`, { signal: shared.signal });
    const reader = response.body!.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /first/);
    assert.equal(getEventListeners(shared.signal, 'abort').length, 1, 'linked while the body is open');
    shared.abort(new Error('transport closed'));
    await assert.rejects(reader.read());
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  });

  test('many requests in flight on one signal: one listener, no MaxListenersExceededWarning, all aborted with it', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController();
      const scoped = requestScopedSignalFetch();
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => scoped(`${url}/slow`, { signal: shared.signal })),
      );
      const readers = responses.map((response) => response.body!.getReader());
      await Promise.all(readers.map((reader) => reader.read()));
      assert.equal(getEventListeners(shared.signal, 'abort').length, 1);
      shared.abort(new Error('transport closed'));
      const outcomes = await Promise.allSettled(readers.map((reader) => reader.read()));
      assert.deepEqual(new Set(outcomes.map((outcome) => outcome.status)), new Set(['rejected']));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      assert.deepEqual(
        warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning'),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('a cancelled body and a failed request are released: the shared signal aborting later touches nothing', async () => {
    const shared = new AbortController();
    const response = await requestScopedSignalFetch()(`${url}/slow`, { signal: shared.signal });
    await response.body!.cancel();
    await assert.rejects(requestScopedSignalFetch()('http://127.0.0.1:1/', { signal: shared.signal }));
    assert.doesNotThrow(() => shared.abort(new Error('transport closed')));
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  });
});
