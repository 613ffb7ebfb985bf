// An HTTP MCP server started by serveMcp as an OAuth protected resource: its Protected Resource
// Metadata, the 401 and 403 challenges that point to it, and tokens whose audience is its URL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { protectedResourceMetadata, protectedResourceMetadataUrl } from '@s2sp/auth';
import { protectedResourceFromEnv, serveMcp, type McpServerAuthOptions, type RunningMcpServer } from '@s2sp/core';
import { StatsServerModule } from '../../apps/stats-server/src/stats-server.module';
import { statsConfig } from '../support/stack';
import { bearerFor } from '../support/tokens';

const PUBLIC_RESOURCE = 'https://stats.example.com/tools/mcp';
const ISSUER = 'https://login.example.com/realms/s2sp';

function startStats(auth: Omit<McpServerAuthOptions, 'audience'> = {}): Promise<RunningMcpServer> {
  return serveMcp(StatsServerModule.forRoot(statsConfig([])), {
    name: 'stats-server',
    version: '0.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    logger: false,
    auth: { audience: 'stats-server', ...auth },
  });
}

function post(server: RunningMcpServer, body: unknown, authorization?: string): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(body),
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'prm-test', version: '1.0.0' } },
};

describe('protected resource metadata documents', () => {
  test('the metadata URL inserts the well-known path before the resource path', () => {
    assert.equal(
      protectedResourceMetadataUrl('https://h.example/mcp'),
      'https://h.example/.well-known/oauth-protected-resource/mcp',
    );
    assert.equal(
      protectedResourceMetadataUrl('https://h.example/a/mcp/'),
      'https://h.example/.well-known/oauth-protected-resource/a/mcp',
    );
    assert.equal(
      protectedResourceMetadataUrl('http://127.0.0.1:8080'),
      'http://127.0.0.1:8080/.well-known/oauth-protected-resource',
    );
  });

  test('bad options are refused naming the option', () => {
    const valid = { resource: 'https://h.example/mcp', authorizationServers: [ISSUER], scopesSupported: ['a:b'] };
    assert.deepEqual(protectedResourceMetadata(valid), {
      resource: 'https://h.example/mcp',
      authorization_servers: [ISSUER],
      scopes_supported: ['a:b'],
      bearer_methods_supported: ['header'],
    });
    for (const [override, option] of [
      [{ resource: '/mcp' }, 'resource'],
      [{ resource: 'https://h.example/mcp#x' }, 'resource'],
      [{ resource: 'ftp://h.example/mcp' }, 'resource'],
      [{ authorizationServers: ['https://login.example.com/?tenant=1'] }, 'authorizationServers'],
      [{ authorizationServers: ['s2sp-dev'] }, 'authorizationServers'],
      [{ scopesSupported: ['two words'] }, 'scopesSupported'],
      [{ scopesSupported: ['quo"te'] }, 'scopesSupported'],
    ] as const) {
      assert.throws(
        () => protectedResourceMetadata({ ...valid, ...override }),
        new RegExp(`^RangeError: Protected resource option ${option} `),
      );
    }
  });

  test('serveMcp refuses a bad resource before it starts', async () => {
    await assert.rejects(startStats({ resource: 'stats.example.com/mcp' }), /Protected resource option resource/);
  });

  test('the S2SP_MCP_* variables give the resource, its authorization servers and scopes', () => {
    const saved = { ...process.env };
    try {
      process.env.S2SP_MCP_RESOURCE_URL = PUBLIC_RESOURCE;
      process.env.S2SP_MCP_AUTHORIZATION_SERVERS = `${ISSUER}, https://second.example.com`;
      process.env.S2SP_MCP_SCOPES_SUPPORTED = 'stats:chart,s2sp:data:read';
      assert.deepEqual(protectedResourceFromEnv(), {
        resource: PUBLIC_RESOURCE,
        authorizationServers: [ISSUER, 'https://second.example.com'],
        scopesSupported: ['stats:chart', 's2sp:data:read'],
      });
      delete process.env.S2SP_MCP_RESOURCE_URL;
      delete process.env.S2SP_MCP_AUTHORIZATION_SERVERS;
      delete process.env.S2SP_MCP_SCOPES_SUPPORTED;
      assert.deepEqual(protectedResourceFromEnv(), {});
    } finally {
      process.env = saved;
    }
  });
});

describe('serveMcp with the default protected resource (dev key)', () => {
  let server: RunningMcpServer;
  before(async () => {
    server = await startStats();
  });
  after(() => server.close());

  test('metadata at the well-known path of /mcp, without a token; no authorization server for the dev issuer', async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      resource: `${server.url}/mcp`,
      // The tools' scopes; not the data plane's: this consumer-only server issues no resources.
      scopes_supported: ['stats:chart'],
      bearer_methods_supported: ['header'],
      resource_name: 'stats-server',
    });
    const wrongMethod = await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`, { method: 'POST' });
    assert.equal(wrongMethod.status, 405);
  });

  test('a 401 names the metadata and the scopes to ask for; a bad token is invalid_token', async () => {
    const missing = await post(server, initialize);
    assert.equal(missing.status, 401);
    const metadata = `${server.url}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(
      missing.headers.get('www-authenticate'),
      `Bearer realm="stats-server", resource_metadata="${metadata}", scope="stats:chart"`,
    );
    const forOtherResource = await post(server, initialize, await bearerFor({ audience: 'https://other.example/mcp' }));
    assert.equal(forOtherResource.status, 401);
    assert.match(forOtherResource.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  test('a token whose audience is the resource URL (RFC 8707) is accepted like one for the service', async () => {
    for (const audience of [`${server.url}/mcp`, 'stats-server']) {
      const response = await post(server, initialize, await bearerFor({ audience, scopes: ['stats:chart'] }));
      assert.equal(response.status, 200, audience);
      await response.body?.cancel();
    }
  });

  test('tools/call without a scope the tool requires: 403 insufficient_scope naming held + required scopes', async () => {
    const token = await bearerFor({ audience: 'stats-server', scopes: ['s2sp:data:read', 'unrelated:scope'] });
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'draw_chart', arguments: {} } };
    const refused = await post(server, call, token);
    assert.equal(refused.status, 403);
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer realm="stats-server", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", ` +
        `error="insufficient_scope", scope="s2sp:data:read stats:chart unrelated:scope"`,
    );
    const body = (await refused.json()) as { id: number; error: { message: string; data: Record<string, unknown> } };
    assert.equal(body.id, 7);
    assert.equal(body.error.message, 'Missing required scope: stats:chart.');
    assert.deepEqual(body.error.data.missing_scopes, ['stats:chart']);

    // Other methods, and tools that need no scope, go on to the transport as before.
    const list = await post(server, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} }, token);
    assert.notEqual(list.status, 403);
    await list.body?.cancel();
  });

  test('with the scope, the call reaches the tool', async () => {
    const client = new Client({ name: 'prm-test', version: '1.0.0' });
    const authorization = await bearerFor({ audience: 'stats-server', scopes: ['stats:chart'] });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization } } }),
    );
    const answer = await client.callTool({ name: 'draw_chart', arguments: {} });
    assert.equal(answer.isError, true, 'the tool itself answers (its arguments are missing), not the scope check');
    assert.doesNotMatch(JSON.stringify(answer.content), /Missing required scope/);
    await client.close();
  });
});

describe('serveMcp with a configured resource and authorization server', () => {
  let server: RunningMcpServer;
  before(async () => {
    server = await startStats({
      resource: PUBLIC_RESOURCE,
      authorizationServers: [ISSUER],
      scopesSupported: ['stats:chart', 'openid'],
    });
  });
  after(() => server.close());

  test('metadata at the path of the public resource; challenges point to the public URL', async () => {
    const response = await fetch(`${server.url}/.well-known/oauth-protected-resource/tools/mcp`);
    assert.deepEqual(await response.json(), {
      resource: PUBLIC_RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ['stats:chart', 'openid'],
      bearer_methods_supported: ['header'],
      resource_name: 'stats-server',
    });
    const refused = await post(server, initialize);
    assert.equal(
      refused.headers.get('www-authenticate'),
      'Bearer realm="stats-server", resource_metadata="https://stats.example.com/.well-known/oauth-protected-resource/tools/mcp", scope="stats:chart openid"',
    );
  });

  test('a token for the public resource URL is accepted; one for the listening URL is not', async () => {
    const forPublic = await post(server, initialize, await bearerFor({ audience: PUBLIC_RESOURCE }));
    assert.equal(forPublic.status, 200);
    await forPublic.body?.cancel();
    const forListening = await post(server, initialize, await bearerFor({ audience: `${server.url}/mcp` }));
    assert.equal(forListening.status, 401);
  });
});
