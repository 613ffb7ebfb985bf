import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import type { ResourceActivityRow } from '../../libs/s2sp/src/activity/resource-activity-summary';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, startWeather } from '../support/stack';
import { TEST_SUBJECT } from '../support/tokens';

const ACTIVITY_URI = 's2sp://data-plane/activity';
let weather: RunningMcpServer;

before(async () => {
  weather = await startWeather();
});

after(async () => {
  await weather?.close();
});

async function readActivity(client: Client): Promise<{ generatedAt: string; rows: ResourceActivityRow[] }> {
  const { contents } = await client.readResource({ uri: ACTIVITY_URI });
  assert.equal(contents.length, 1);
  const [content] = contents;
  assert.ok(content && 'text' in content && typeof content.text === 'string', 'a text resource');
  assert.equal(content.mimeType, 'application/json');
  return JSON.parse(content.text);
}

test("the weather server's activity shows a get_alerts resource issued, fetched and consumed, with the bytes served, under its caller", async () => {
  const client = await connectMcp(weather.url, 'activity-test', { scopes: ['weather:read', 's2sp:activity:read'] });
  try {
    assert.deepEqual((await readActivity(client)).rows, [], 'nothing happened yet');
    const answer = jsonOf(
      await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    );
    const fetched = await fetchResource(answer.resource_url, {}, { scopes: ['s2sp:data:read', 'weather:read'] });
    assert.equal(fetched.status, 200, JSON.stringify(fetched.json));

    const { generatedAt, rows } = await readActivity(client);
    assert.ok(!Number.isNaN(Date.parse(generatedAt)));
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const [row] = rows;
    assert.equal(row.toolName, 'get_alerts');
    assert.equal(row.caller, TEST_SUBJECT);
    assert.deepEqual(
      { issued: row.issued, consumed: row.consumed, expired: row.expired, live: row.live, fetches: row.fetches },
      { issued: 1, consumed: 1, expired: 0, live: 0, fetches: 1 },
    );
    assert.ok(row.bytes > 0, `bytes served: ${row.bytes}`);
    assert.ok(row.lastFetch !== null && Date.parse(row.lastFetch) <= Date.parse(generatedAt));
    assert.ok(!JSON.stringify(rows).includes(answer.resource_url), 'no capability URL leaves the server');
  } finally {
    await client.close();
  }
});

test('reading the activity needs s2sp:activity:read; tool scopes alone are refused, naming the missing scope', async () => {
  const client = await connectMcp(weather.url, 'activity-test-unscoped', {
    scopes: ['weather:read', 's2sp:data:read'],
  });
  try {
    await assert.rejects(
      client.readResource({ uri: ACTIVITY_URI }),
      (error: Error & { code?: number; data?: { missing_scopes?: string[] } }) => {
        assert.match(error.message, /s2sp:activity:read/);
        // The platform's insufficient-scope code and data, not an internal error, so callers (the agents) can tell a refusal.
        assert.equal(error.code, 4002);
        assert.deepEqual(error.data?.missing_scopes, ['s2sp:activity:read']);
        return true;
      },
    );
  } finally {
    await client.close();
  }
});
