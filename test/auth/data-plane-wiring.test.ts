import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { S2SP_DATABASE, type RunningMcpServer } from '@s2sp/core';
import { type S2spDatabase } from '@s2sp/database';
import { bearerHeaders, DevKeyStore, JwtTokenVerifier, TokenMinter, type CallerIdentity } from '../../libs/auth/src';
import { HTTP_PLATFORMS, startWeather } from '../support/stack';
import { flushAudit } from '../support/audit';
import { testMinter } from '../support/tokens';

/**
 * The real weather server as `npm start` runs it (serveMcp with auth): /mcp
 * and the S2SP data plane need a bearer token, and every decision and every
 * fetch lands in its database.
 */
for (const platform of HTTP_PLATFORMS)
  describe(`weather-server with /mcp and the S2SP data plane protected (${platform})`, () => {
    let weather: RunningMcpServer;
    let url = '';
    let minter: TokenMinter;
    let verifierFor: (audience: string) => JwtTokenVerifier;
    let atAgents: CallerIdentity;
    const clients: Client[] = [];

    before(async () => {
      weather = await startWeather({ platform });
      url = weather.url;
      minter = testMinter();
      const store = new DevKeyStore();
      verifierFor = (audience) => new JwtTokenVerifier({ audience, issuer: 's2sp-dev', keys: { kind: 'dev', store } });
      // alice → gateway → agents, narrowing at each hop.
      const atGateway = await verifierFor('gateway').verify(
        await minter.mint({
          subject: 'alice',
          scopes: ['weather:read', 'stats:chart', 's2sp:data:read', 'tasks:submit'],
          audience: 'gateway',
          ttlSeconds: 600,
        }),
      );
      atAgents = await verifierFor('agents').verify(
        await minter.narrowToken(atGateway, ['weather:read', 'stats:chart', 's2sp:data:read'], 'agents', 30_000),
      );
    });
    after(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await weather?.close();
    });

    async function issueResource(): Promise<string> {
      // The agents hop calls the weather server's MCP tool with a token narrowed to what the tool needs.
      const token = await minter.narrowToken(atAgents, ['weather:read'], 'weather-server', 20_000);
      const client = new Client({ name: 'agents', version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearerHeaders(token) } }),
      );
      clients.push(client);
      const result = await client.callTool({
        name: 'get_alerts',
        arguments: { area: 'CA', abstract_domains: 'event' },
      });
      return (result.structuredContent as { resource_url: string }).resource_url;
    }

    const fetchBody = (resourceUrl: string, headers: Record<string, string> = {}) =>
      fetch(resourceUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ row_ids: [0] }),
      });

    test('/mcp without a token: 401 with WWW-Authenticate and a JSON-RPC error, before the MCP transport', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      const response = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(initialize),
      });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="weather-server"/);
      assert.deepEqual(await response.json(), {
        jsonrpc: '2.0',
        error: { code: 4001, message: 'Invalid or expired credentials.', data: {} },
        id: null,
      });
    });

    test('the consumer fetches with its own caller-scoped token; refusals do not burn the single-use resource', async () => {
      const resourceUrl = await issueResource();
      assert.match(resourceUrl, /\/s2sp\/data\/[A-Za-z0-9_-]{43}$/);

      // The consumer (stats-server) was called by the agents hop with a token for itself.
      // It holds the resource tool's scope too (weather:read): the data plane asks for it.
      const atStats = await verifierFor('stats-server').verify(
        await minter.narrowToken(atAgents, ['stats:chart', 's2sp:data:read', 'weather:read'], 'stats-server', 20_000),
      );
      const notForWeather = await minter.narrowToken(
        atAgents,
        ['stats:chart', 's2sp:data:read'],
        'stats-server',
        20_000,
      );
      const noDataScope = await minter.narrowToken(atStats, ['stats:chart'], 'weather-server', 10_000);

      const anonymous = await fetchBody(resourceUrl);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="weather-server"');
      assert.deepEqual(await anonymous.json(), {
        error: { code: 'UNAUTHENTICATED', message: 'Invalid or expired credentials.' },
      });
      assert.equal(
        (await fetchBody(resourceUrl, bearerHeaders(notForWeather))).status,
        401,
        'a token for another audience is refused',
      );
      const forbidden = await fetchBody(resourceUrl, bearerHeaders(noDataScope));
      assert.equal(forbidden.status, 403);
      const forbiddenError = ((await forbidden.json()) as { error: { code: string; message: string } }).error;
      assert.deepEqual(
        [forbiddenError.code, forbiddenError.message],
        ['PERMISSION_DENIED', 'Missing required scope: s2sp:data:read.'],
      );

      const withoutToolScope = await fetchBody(
        resourceUrl,
        bearerHeaders(await minter.narrowToken(atStats, ['s2sp:data:read'], 'weather-server', 10_000)),
      );
      assert.equal(withoutToolScope.status, 403);
      const withoutToolScopeError = ((await withoutToolScope.json()) as { error: { code: string; message: string } })
        .error;
      assert.equal(
        withoutToolScopeError.code,
        'PERMISSION_DENIED',
        'a missing scope has one code on the data plane, whichever scope it is',
      );
      assert.match(withoutToolScopeError.message, /weather:read/);

      // The consumer's data-plane fetch: its caller's token narrowed for the resource server, without its own tool scope.
      const consumerToken = await minter.narrowToken(
        atStats,
        ['s2sp:data:read', 'weather:read'],
        'weather-server',
        10_000,
      );
      const ok = await fetchBody(resourceUrl, bearerHeaders(consumerToken));
      assert.equal(ok.status, 200);
      const body = (await ok.json()) as { body: Array<{ _row_id: number }> };
      assert.deepEqual(
        body.body.map((row) => row._row_id),
        [0],
      );
      assert.equal((await fetchBody(resourceUrl, bearerHeaders(consumerToken))).status, 404, 'still single-use');

      await flushAudit(weather.app);
      const database = weather.app.get<S2spDatabase>(S2SP_DATABASE).client;
      const events = await database.auditEvent.findMany({ orderBy: { time: 'asc' } });
      const fetches = events.filter((e) => e.protocol === 's2sp-data');
      assert.deepEqual(
        fetches.map((e) => e.outcome),
        ['unauthenticated', 'unauthenticated', 'missing-scopes', 'authorized', 'authorized', 'authorized'],
      );
      const allowed = fetches[4];
      assert.equal(allowed.subject, 'alice');
      assert.deepEqual(allowed.delegatedBy, ['gateway', 'agents', 'stats-server']);
      assert.equal(allowed.operation, 'POST /s2sp/data');
      const token = resourceUrl.slice(resourceUrl.lastIndexOf('/') + 1);
      assert.ok(!JSON.stringify(events).includes(token), 'the resource token is not in audit');
      const served = await database.dataPlaneFetch.findMany({ orderBy: { time: 'asc' } });
      assert.deepEqual(
        served.map((fetch) => [fetch.result, fetch.subject, fetch.consumer, fetch.rows]),
        [
          ['forbidden', 'alice', 'stats-server', 0],
          ['served', 'alice', 'stats-server', 1],
          ['not-found', 'alice', 'stats-server', 0],
        ],
      );
      assert.ok(!JSON.stringify(served).includes(token), 'the resource token is not in the fetch audit');
      assert.equal((await fetch(`${url}/s2sp/health`)).status, 200, 'health stays open');
    });
  });
