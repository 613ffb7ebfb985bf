import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { describe, test } from 'node:test';
import { DEFAULT_SHUTDOWN_OPTIONS, shutdownOptionsFromEnv } from '../../libs/platform/src';
import { HttpRequestDrain, Readiness, resolveShutdownOptions } from '../../libs/platform/src/internal';
import { SHUTDOWN_ENV, shutDownGracefully } from '../../libs/platform/src/shutdown';
import { withEnv } from '../support/with-env';

const UNSET = { [SHUTDOWN_ENV.graceMs]: undefined, [SHUTDOWN_ENV.notReadyDelayMs]: undefined };

describe('resolveShutdownOptions and shutdownOptionsFromEnv', () => {
  test('resolveShutdownOptions takes the options given over the defaults, never the environment', () => {
    withEnv({ [SHUTDOWN_ENV.graceMs]: '30000', [SHUTDOWN_ENV.notReadyDelayMs]: '5000' }, () => {
      assert.deepEqual(resolveShutdownOptions(), DEFAULT_SHUTDOWN_OPTIONS);
      assert.deepEqual(resolveShutdownOptions({ graceMs: 2_000 }), { ...DEFAULT_SHUTDOWN_OPTIONS, graceMs: 2_000 });
    });
  });

  test('shutdownOptionsFromEnv reads the variables over the defaults, for an app to pass as options', () => {
    assert.deepEqual(
      withEnv(UNSET, () => shutdownOptionsFromEnv()),
      DEFAULT_SHUTDOWN_OPTIONS,
    );
    const fromEnv = withEnv({ [SHUTDOWN_ENV.graceMs]: '30000', [SHUTDOWN_ENV.notReadyDelayMs]: '5000' }, () =>
      shutdownOptionsFromEnv(),
    );
    assert.deepEqual(fromEnv, { graceMs: 30_000, notReadyDelayMs: 5_000 });
  });

  test('malformed or inconsistent values are refused, naming the variable or the option', () => {
    assert.throws(
      () => withEnv({ ...UNSET, [SHUTDOWN_ENV.graceMs]: 'soon' }, () => shutdownOptionsFromEnv()),
      /S2SP_SHUTDOWN_GRACE_MS must be an integer/,
    );
    assert.throws(
      () =>
        withEnv({ [SHUTDOWN_ENV.graceMs]: '1000', [SHUTDOWN_ENV.notReadyDelayMs]: '2000' }, () =>
          shutdownOptionsFromEnv(),
        ),
      /notReadyDelayMs \(2000\) must not exceed graceMs \(1000\)/,
    );
    assert.throws(() => resolveShutdownOptions({ graceMs: -1 }), /shutdown option graceMs must be an integer from 0/);
    assert.throws(
      () => resolveShutdownOptions({ graceMs: 1_000, notReadyDelayMs: 2_000 }),
      /shutdown option notReadyDelayMs \(2000\) must not exceed graceMs \(1000\)/,
    );
  });
});

/** A server whose answers wait until the test releases them (`release()`); `arrived` counts requests. */
async function heldServer(): Promise<{ server: Server; port: number; arrived: () => number; release: () => void }> {
  let arrived = 0;
  const waiting: Array<() => void> = [];
  const server = createServer((request, response) => {
    arrived++;
    waiting.push(() => response.end(`answered ${request.url}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as { port: number }).port,
    arrived: () => arrived,
    release: () => waiting.splice(0).forEach((answer) => answer()),
  };
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers }, (response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection }),
      );
    })
      .on('error', reject)
      .end();
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('HttpRequestDrain', () => {
  test('a request in flight when draining starts is answered; new connections are refused; drain resolves true', async () => {
    const held = await heldServer();
    const drain = new HttpRequestDrain(held.server);
    const inFlight = get(held.port, '/slow');
    await until(() => held.arrived() === 1);
    assert.equal(drain.activeRequests, 1);

    const drained = drain.drain(Date.now() + 60_000);
    await assert.rejects(get(held.port, '/late'), /ECONNREFUSED/, 'no new connection once draining');
    held.release();
    assert.deepEqual(
      await inFlight,
      { status: 200, body: 'answered /slow', connection: 'close' },
      'answered, and told to reconnect elsewhere',
    );
    assert.equal(await drained, true);
  });

  test('a request still running at the deadline makes drain resolve false', async () => {
    const held = await heldServer();
    const drain = new HttpRequestDrain(held.server);
    const inFlight = get(held.port, '/forever').catch(() => undefined);
    await until(() => held.arrived() === 1);
    assert.equal(await drain.drain(Date.now()), false);
    held.server.closeAllConnections();
    await inFlight;
  });

  test('an open event stream is not waited for', async () => {
    const held = await heldServer();
    const drain = new HttpRequestDrain(held.server);
    const stream = get(held.port, '/events', { accept: 'text/event-stream' }).catch(() => undefined);
    await until(() => held.arrived() === 1);
    assert.equal(drain.activeRequests, 0);
    assert.equal(await drain.drain(Date.now() + 60_000), true);
    held.server.closeAllConnections();
    await stream;
  });
});

describe('shutDownGracefully', () => {
  test('reports not-ready first, drains with one deadline for all, then closes; says what was cut off', async () => {
    const readiness = new Readiness();
    const events: string[] = [];
    readiness.onShutdown(() => events.push('not-ready'));
    const deadlines: number[] = [];
    await shutDownGracefully({
      options: { graceMs: 5_000, notReadyDelayMs: 0 },
      readiness,
      drains: [
        { name: 'calls', drain: async (deadline) => (deadlines.push(deadline), events.push('calls drained'), true) },
        { name: 'tasks', drain: async (deadline) => (deadlines.push(deadline), events.push('tasks cut off'), false) },
      ],
      close: async () => void events.push('closed'),
      log: (message) => events.push(message),
    });
    assert.equal(readiness.status, 'shutting_down');
    assert.equal(events[0], 'not-ready');
    assert.deepEqual(events.slice(2), [
      'calls drained',
      'tasks cut off',
      'grace period over, cutting off: tasks; closing',
      'closed',
    ]);
    assert.equal(new Set(deadlines).size, 1, 'one deadline, counted from the start of the shutdown');
  });
});
