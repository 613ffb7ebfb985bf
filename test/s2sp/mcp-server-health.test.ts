import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestMcpServer } from '../support/test-mcp-server';

test('GET /health of a serveMcp app without AuthModule or S2spModule: ok, no audit trail, its sessions counted', async () => {
  const testkit = await startTestMcpServer();
  try {
    const response = await fetch(`${testkit.server.url}/health`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok', audit: { status: 'ok', trails: {} }, mcpSessions: 0 });
  } finally {
    await testkit.close();
  }
});
