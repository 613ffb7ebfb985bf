import assert from 'node:assert/strict';
import { test } from 'node:test';
import { request } from 'node:http';
import { startStats } from '../support/stack';

function keepAliveHeader(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/s2sp/health`, { agent: false, headers: { connection: 'keep-alive' } }, (response) => {
      response.resume();
      resolve(response.headers['keep-alive'] as string | undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

test('an MCP server keeps idle connections for S2SP_MCP_KEEP_ALIVE_TIMEOUT_MS (default 65 s), as its Keep-Alive header tells clients', async () => {
  const byDefault = await startStats([]);
  try {
    assert.equal(await keepAliveHeader(byDefault.url), 'timeout=65');
  } finally {
    await byDefault.close();
  }
  // What S2SP_MCP_KEEP_ALIVE_TIMEOUT_MS=30000 gives the stats server (its config reads it with mcpHttpLimitsFromEnv).
  const configured = await startStats([], { mcpLimits: { keepAliveTimeoutMs: 30_000 } });
  try {
    assert.equal(await keepAliveHeader(configured.url), 'timeout=30');
  } finally {
    await configured.close();
  }
});
