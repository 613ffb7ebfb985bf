import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { McpServer } from '@modelcontextprotocol/server';
import { closeAnsweredServer } from '../../libs/s2sp/src/bootstrap/close-answered-server';

/** A server whose close builds the error the SDK's does, and keeps it. */
function closingServer(close: () => Promise<void> = () => Promise.resolve()) {
  const built: Error[] = [];
  const server = {
    close: () => {
      built.push(new Error('Connection closed'));
      return close();
    },
  } as unknown as McpServer;
  return { server, built };
}

test('the error a close builds has no stack trace frames, and the limit is restored at once', () => {
  const limit = Error.stackTraceLimit;
  const { server, built } = closingServer();
  closeAnsweredServer(server);
  assert.equal(built.length, 1);
  assert.equal(built[0].stack, 'Error: Connection closed');
  assert.equal(Error.stackTraceLimit, limit);
  assert.match(new Error('after').stack ?? '', /\n\s+at /, 'errors built afterwards have their stack again');
});

test('a close that fails is not an unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    closeAnsweredServer(closingServer(() => Promise.reject(new Error('already closed'))).server);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
