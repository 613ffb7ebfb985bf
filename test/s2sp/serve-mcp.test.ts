import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serveMcp } from '@s2sp/core';
import { StatsServerModule } from '../../apps/stats-server/src/stats-server.module';
import { connectMcp } from '../support/mcp-client';
import { statsConfig } from '../support/stack';

test('serveMcp runs configure() before /mcp is mounted, so middleware sees MCP and data-plane requests', async () => {
  const seen: string[] = [];
  const server = await serveMcp(StatsServerModule.forRoot(statsConfig([])), {
    name: 'configure-test',
    version: '0.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    logger: false,
    configure: (app) => {
      app.use((request: { method: string; path: string }, _response: unknown, next: () => void) => {
        seen.push(`${request.method} ${request.path}`);
        next();
      });
    },
  });
  try {
    const client = await connectMcp(server.url);
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'draw_chart'));
    await client.close();
    assert.equal((await fetch(`${server.url}/s2sp/health`)).status, 200);
    assert.ok(
      seen.some((line) => line === 'POST /mcp'),
      `middleware saw: ${seen.join(', ')}`,
    );
    assert.ok(seen.includes('GET /s2sp/health'));
  } finally {
    await server.close();
  }
});
