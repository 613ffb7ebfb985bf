import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningMcpServer } from '@s2sp/core';
import type { ResourceActivityRow } from '../../libs/s2sp/src/activity/resource-activity-summary';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, grpc, unary, unaryError, type AgentsClients } from '../support/agents-grpc-client';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, startStats, startWeather } from '../support/stack';
import { ALL_TEST_SCOPES, TEST_SUBJECT } from '../support/tokens';

const ACTIVITY_URI = 's2sp://data-plane/activity';

describe('agents s2sp.v2.ToolService/ReadResource', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let agents: RunningAgents;
  let reader: AgentsClients;

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    agents = await startTestAgents(
      agentsTestConfig([
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'stats', url: `${stats.url}/mcp` },
      ]),
    );
    reader = connectAgents(agents.url);
  });

  after(async () => {
    reader?.close();
    await agents?.close();
    await stats?.close();
    await weather?.close();
  });

  test("reads the weather server's activity with the caller's authority: the caller's get_alerts resource, consumed, with its bytes", async () => {
    const mcp = await connectMcp(weather.url, 'read-resource-test', { scopes: ['weather:read'] });
    try {
      const answer = jsonOf(
        await mcp.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      const fetched = await fetchResource(answer.resource_url, {}, { scopes: ['s2sp:data:read', 'weather:read'] });
      assert.equal(fetched.status, 200, JSON.stringify(fetched.json));
    } finally {
      await mcp.close();
    }

    const response = await unary(reader.toolsV2, 'ReadResource', { server: 'weather', uri: ACTIVITY_URI });
    assert.equal(response.error, null);
    assert.equal(response.contents.length, 1);
    const [content] = response.contents;
    assert.equal(content.uri, ACTIVITY_URI);
    assert.equal(content.mime_type, 'application/json');
    const rows: ResourceActivityRow[] = JSON.parse(content.text).rows;
    const row = rows.find((candidate) => candidate.toolName === 'get_alerts' && candidate.caller === TEST_SUBJECT);
    assert.ok(row, JSON.stringify(rows));
    assert.ok(row.consumed >= 1 && row.fetches >= 1 && row.bytes > 0, JSON.stringify(row));
  });

  test("without s2sp:activity:read the weather server refuses: PERMISSION_DENIED with the server's message naming the scope", async () => {
    const withoutActivity = connectAgents(agents.url, {
      scopes: ALL_TEST_SCOPES.filter((scope) => scope !== 's2sp:activity:read'),
    });
    try {
      const error = await unaryError(withoutActivity.toolsV2, 'ReadResource', { server: 'weather', uri: ACTIVITY_URI });
      assert.equal(error.code, grpc.status.PERMISSION_DENIED, error.message);
      assert.match(error.details, /MCP server "weather" refused the request: .*s2sp:activity:read/);
    } finally {
      withoutActivity.close();
    }
  });

  test('the agents require resources:read at their door, as InvokeTool requires tools:call', async () => {
    const withoutMethodScope = connectAgents(agents.url, {
      scopes: ALL_TEST_SCOPES.filter((scope) => scope !== PLATFORM_SCOPES.RESOURCES_READ),
    });
    try {
      const error = await unaryError(withoutMethodScope.toolsV2, 'ReadResource', {
        server: 'weather',
        uri: ACTIVITY_URI,
      });
      assert.equal(error.code, grpc.status.PERMISSION_DENIED);
      assert.match(error.details, /resources:read/);
    } finally {
      withoutMethodScope.close();
    }
  });

  test('an unknown server is NOT_FOUND, naming the servers there are', async () => {
    const error = await unaryError(reader.toolsV2, 'ReadResource', { server: 'nowhere', uri: ACTIVITY_URI });
    assert.equal(error.code, grpc.status.NOT_FOUND);
    assert.equal(error.details, 'server: no MCP server "nowhere" is configured (known: weather, stats)');
  });

  test("a resource the server does not offer is the response's typed error, with the server's code, not a failed call", async () => {
    const unknown = await unary(reader.toolsV2, 'ReadResource', {
      server: 'weather',
      uri: 's2sp://data-plane/nothing-here',
    });
    assert.deepEqual(unknown.contents, []);
    assert.equal(unknown.error.code, -32602, JSON.stringify(unknown.error));
    assert.match(
      unknown.error.message,
      /^MCP server "weather" refused the request: .*Resource not found: s2sp:\/\/data-plane\/nothing-here/,
    );
    // The stats server offers no resources at all: any URI is unknown there.
    const none = await unary(reader.toolsV2, 'ReadResource', { server: 'stats', uri: ACTIVITY_URI });
    assert.deepEqual(none.contents, []);
    assert.equal(none.error.code, -32602, JSON.stringify(none.error));
    assert.match(
      none.error.message,
      /^MCP server "stats" refused the request: .*Resource not found: s2sp:\/\/data-plane\/activity/,
    );
  });

  test('server and uri are required and bounded; a deadline too close is refused before any MCP request', async () => {
    for (const [request, field] of [
      [{ uri: ACTIVITY_URI }, 'server'],
      [{ server: 'weather' }, 'uri'],
      [{ server: 'weather', uri: `s2sp://${'x'.repeat(2048)}` }, 'uri'],
      [{ server: 'weather', uri: 's2sp://a\nb' }, 'uri'],
    ] as const) {
      const error = await unaryError(reader.toolsV2, 'ReadResource', request);
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, JSON.stringify(request));
      assert.match(error.details, new RegExp(`^${field}: `));
    }
    const late = await unaryError(
      reader.toolsV2,
      'ReadResource',
      { server: 'weather', uri: ACTIVITY_URI },
      { deadlineMs: 5 },
    );
    assert.equal(late.code, grpc.status.DEADLINE_EXCEEDED);
  });
});
