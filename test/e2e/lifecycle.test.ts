import assert from 'node:assert/strict';

import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RESOURCE_STORE, type ResourceStore } from '@s2sp/core';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { openPostgresTestDatabase, postgresSkipReason, postgresTestUrl } from '../support/databases';
import { fetchResource, startWeather, tempDir } from '../support/stack';

const distRoot = join(__dirname, '..', '..');

async function issueResource(baseUrl: string): Promise<{ resource_url: string; total_rows: number }> {
  const agent = await connectMcp(baseUrl);
  try {
    return jsonOf(await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } })) as never;
  } finally {
    await agent.close();
  }
}

describe('resource lifecycle', () => {
  test('a resource_url expires after its TTL and the sweeper removes it', async () => {
    const weather = await startWeather({ resourceTtlMs: 300, sweepIntervalMs: 100 });
    try {
      const resource = await issueResource(weather.url);
      const store = weather.app.get<ResourceStore>(RESOURCE_STORE);
      const swept = await new Promise<number>((resolve) => setTimeout(() => resolve(store.sweepExpired()), 700));
      assert.equal(swept, 0, 'the background sweeper already removed the expired resource');
      const response = await fetchResource(resource.resource_url);
      assert.equal(response.status, 404);
      assert.equal(response.json.error.code, 'RESOURCE_NOT_FOUND');
    } finally {
      await weather.close();
    }
  });

  test('an expired resource is refused even before the sweeper runs', async () => {
    const weather = await startWeather({ resourceTtlMs: 200, sweepIntervalMs: 0 });
    try {
      const resource = await issueResource(weather.url);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal((await fetchResource(resource.resource_url)).status, 404);
    } finally {
      await weather.close();
    }
  });

  test('a resource server restarted inside the TTL still serves its outstanding resource_urls (embedded PostgreSQL data dir)', async () => {
    const dir = tempDir('s2sp-restart-');
    try {
      const first = await startWeather({ dataDir: dir.path });
      const resource = await issueResource(first.url);
      await first.close();
      assert.notEqual((await fetchResource(resource.resource_url).catch(() => ({ status: 0 }))).status, 200, 'the server is down');

      const second = await startWeather({ dataDir: dir.path, port: first.port });
      try {
        const response = await fetchResource(resource.resource_url, { row_ids: [0, 1] });
        assert.equal(response.status, 200);
        assert.deepEqual(response.json.body.map((row: { _row_id: number }) => row._row_id), [0, 1]);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });

  test('a resource server on PostgreSQL (DATABASE_URL) serves its resource_urls across a restart', async (t) => {
    const database = await openPostgresTestDatabase();
    if (!database) return t.skip(await postgresSkipReason());
    const url = new URL(postgresTestUrl());
    url.searchParams.set('schema', database.schema);
    try {
      const first = await startWeather({ databaseUrl: url.toString() });
      const resource = await issueResource(first.url);
      await first.close();
      const second = await startWeather({ databaseUrl: url.toString(), port: first.port });
      try {
        assert.equal((await fetchResource(resource.resource_url, { row_ids: [0] })).status, 200);
        assert.equal((await fetchResource(resource.resource_url, { row_ids: [0] })).status, 404);
        const stored = await database.client.s2spResource.count({ where: { consumedAt: { not: null } } });
        assert.equal(stored, 1, 'the resource lived in the PostgreSQL schema');
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  });

  test('the stdio entry point speaks MCP on stdout only and still serves its data plane over HTTP', async () => {
    const dir = tempDir('s2sp-stdio-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(distRoot, 'apps/weather-server/src/stdio.js')],
      env: { ...process.env, WEATHER_PORT: '0', WEATHER_DATA_DIR: dir.path } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    try {
      await client.connect(transport);
      const answer = jsonOf(await client.callTool({ name: 'get_alerts', arguments: { area: 'WA', abstract_domains: 'event' } }));
      const response = await fetchResource(answer.resource_url);
      assert.equal(response.status, 200);
      assert.equal(response.json.body.length, answer.total_rows);
    } finally {
      await client.close();
      dir.remove();
    }
  });
});

