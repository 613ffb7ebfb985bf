import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpServer, type Transport } from '@modelcontextprotocol/server';
import { withStacklessCloseError } from '../../libs/s2sp/src/mcp-surfaces/stackless-close-error';

/** A transport that sends nowhere and closes when asked. */
function silentTransport(): Transport {
  const transport: Transport = {
    start: () => Promise.resolve(),
    send: () => Promise.resolve(),
    close: () => {
      transport.onclose?.();
      return Promise.resolve();
    },
  };
  return transport;
}

/** Closes a connected server while a request it sent (ping) still waits; resolves to that request's error. */
async function errorOfPendingRequestAtClose(server: McpServer): Promise<Error> {
  await server.connect(silentTransport());
  const pending = server.server.ping().then(
    () => assert.fail('the ping cannot be answered'),
    (error: unknown) => error as Error,
  );
  await server.close();
  return await pending;
}

test('a closed server rejects what waits on it with "Connection closed", without stack trace frames', async () => {
  const limit = Error.stackTraceLimit;
  const error = await errorOfPendingRequestAtClose(withStacklessCloseError(new McpServer({ name: 't', version: '1' })));
  assert.match(error.message, /Connection closed/);
  assert.doesNotMatch(error.stack ?? '', /\n\s+at /);
  assert.equal(Error.stackTraceLimit, limit, 'the stack trace limit is restored');
  assert.match(new Error('after').stack ?? '', /\n\s+at /, 'errors built afterwards have their stack again');
});

test('without it the SDK builds the same error with a stack (what the wrapper saves)', async () => {
  const error = await errorOfPendingRequestAtClose(new McpServer({ name: 't', version: '1' }));
  assert.match(error.message, /Connection closed/);
  assert.match(error.stack ?? '', /\n\s+at /);
});

test('the server’s onclose callbacks still run, and a second close does nothing', async () => {
  const server = withStacklessCloseError(new McpServer({ name: 't', version: '1' }));
  let closes = 0;
  server.server.onclose = () => closes++;
  await server.connect(silentTransport());
  await server.close();
  await server.close();
  assert.equal(closes, 1);
  assert.equal(server.isConnected(), false);
});
