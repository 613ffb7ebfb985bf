import assert from 'node:assert/strict';
import { test } from 'node:test';
import { S2SP_DATABASE } from '@s2sp/core';
import type { SqlDatabase } from '@s2sp/platform/internal';
import { startWeather } from '../support/stack';
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

test('GET /health of a server with S2spModule reports its database: ok while it answers, then degraded and unavailable', async () => {
  const weather = await startWeather();
  try {
    const health = async () =>
      (await (await fetch(`${weather.url}/health`)).json()) as { status: string; database?: { status: string } };
    assert.deepEqual([(await health()).status, (await health()).database], ['ok', { status: 'ok' }]);
    await weather.app.get<SqlDatabase>(S2SP_DATABASE).close();
    const down = await health();
    assert.deepEqual([down.status, down.database], ['degraded', { status: 'unavailable' }]);
  } finally {
    await weather.close();
  }
});
