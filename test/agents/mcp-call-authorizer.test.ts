import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { AuthorizationGate } from '../../libs/auth/src';
import { McpCallAuthorizer } from '../../libs/agents/src/mcp/mcp-call-authorizer.service';
import type { McpConnectorService } from '../../libs/agents/src/mcp/mcp-connector.service';
import type { RegisteredTool } from '../../libs/agents/src/mcp/registered-tool';
import { devSetup, type DevSetup } from '../auth/auth-fixtures';

const drawChart: RegisteredTool = {
  serverId: 'stats',
  name: 'draw_chart',
  description: 'chart',
  inputSchema: {},
  kind: 'S2SP_CONSUMER',
  mutationClass: 'READ_ONLY',
  scopes: ['stats:chart'],
  version: '1',
};

/** The agents know two resource tools: weather's (weather:read) and a file server's (files:read). */
const connector = {
  registry: { resourceScopes: () => ['weather:read', 'files:read'] },
  audienceOf: () => 'stats-server',
} as unknown as McpConnectorService;
const allowAll = { authorize: async () => undefined } as unknown as AuthorizationGate;

describe('McpCallAuthorizer: what a consumer tool’s token carries for its data-plane fetch', () => {
  let dev: DevSetup;
  let authorizer: McpCallAuthorizer;
  before(async () => {
    dev = await devSetup();
    authorizer = new McpCallAuthorizer(allowAll, dev.minter, connector);
  });
  after(() => dev.dir.remove());

  const scopesOf = (header: string) =>
    String(decodeJwt(header.replace(/^Bearer /, '')).scope)
      .split(' ')
      .sort();

  test('handed one resource (a task step), it gets that resource tool’s scopes only', async () => {
    const caller = await dev.identity(
      'alice',
      ['stats:chart', 's2sp:data:read', 'weather:read', 'files:read'],
      'agents',
    );
    const header = await authorizer.authorizationFor(caller, drawChart, Date.now() + 10_000, {
      dataSourceScopes: ['weather:read'],
    });
    assert.deepEqual(scopesOf(header), ['s2sp:data:read', 'stats:chart', 'weather:read'], 'files:read stays behind');
  });

  test('not knowing the resource (a bare InvokeTool), it gets the caller’s scopes of every resource tool', async () => {
    const caller = await dev.identity(
      'alice',
      ['stats:chart', 's2sp:data:read', 'weather:read', 'files:read'],
      'agents',
    );
    const header = await authorizer.authorizationFor(caller, drawChart, Date.now() + 10_000);
    assert.deepEqual(scopesOf(header), ['files:read', 's2sp:data:read', 'stats:chart', 'weather:read']);
  });

  test('never more than the caller holds', async () => {
    const caller = await dev.identity('bob', ['stats:chart', 's2sp:data:read'], 'agents');
    const header = await authorizer.authorizationFor(caller, drawChart, Date.now() + 10_000, {
      dataSourceScopes: ['weather:read'],
    });
    assert.deepEqual(scopesOf(header), ['s2sp:data:read', 'stats:chart']);
  });
});

describe('McpCallAuthorizer: what a resource read’s token carries', () => {
  let dev: DevSetup;
  let authorizer: McpCallAuthorizer;
  /** The weather server's tool declares weather:read; the agents know nothing else of it. */
  const weatherConnector = {
    registry: {
      forServer: (serverId: string) =>
        serverId === 'weather'
          ? [{ ...drawChart, serverId: 'weather', name: 'get_alerts', scopes: ['weather:read'] }]
          : [],
    },
    audienceOf: (serverId: string) => `${serverId}-server`,
  } as unknown as McpConnectorService;
  before(async () => {
    dev = await devSetup();
    authorizer = new McpCallAuthorizer(allowAll, dev.minter, weatherConnector);
  });
  after(() => dev.dir.remove());

  const claimsOf = (header: string) => decodeJwt(header.replace(/^Bearer /, ''));

  test('the caller’s scopes the server may check (its tools’ and s2sp:activity:read), for that server only; nothing for other servers or the platform', async () => {
    const caller = await dev.identity(
      'alice',
      ['resources:read', 'tools:call', 'weather:read', 'stats:chart', 's2sp:data:read', 's2sp:activity:read'],
      'agents',
    );
    const claims = claimsOf(await authorizer.resourceReadAuthorization(caller, 'weather', Date.now() + 10_000));
    assert.deepEqual(String(claims.scope).split(' ').sort(), ['s2sp:activity:read', 'weather:read']);
    assert.equal(claims.aud, 'weather-server');
    assert.equal(claims.sub, 'alice');
  });

  test('never more than the caller holds: without s2sp:activity:read the server gets a token without it, and refuses the read itself', async () => {
    const caller = await dev.identity('bob', ['resources:read', 'weather:read'], 'agents');
    const claims = claimsOf(await authorizer.resourceReadAuthorization(caller, 'weather', Date.now() + 10_000));
    assert.deepEqual(String(claims.scope).split(' '), ['weather:read']);
  });
});
