import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpStrategy, StreamableHttpTransport } from '@rekog/mcp-nest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WeatherServerModule } from '../../apps/weather-server/src/weather-server.module';
import { weatherConfig } from '../support/stack';
import {
  AuthModule,
  AuthorizationGate,
  bearerAuthMiddleware,
  bearerHeaders,
  InMemoryAuditSink,
  JwtTokenVerifier,
  DevKeyStore,
  mcpHttpAuthMiddleware,
  S2SP_DATA_READ_SCOPE,
  TokenMinter,
  type CallerIdentity,
} from '../../libs/auth/src';
import { tempDir } from './auth-fixtures';

/**
 * The real weather server (unchanged) with the library wired the way an app
 * would: /mcp behind mcpHttpAuthMiddleware and the S2SP data plane behind
 * bearerAuthMiddleware, both mounted before the routes exist.
 */
describe('weather-server with /mcp and the S2SP data plane protected', () => {
  const dir = tempDir();
  const audit = new InMemoryAuditSink();
  let app: INestApplication;
  let url = '';
  let minter: TokenMinter;
  let verifierFor: (audience: string) => JwtTokenVerifier;
  let atAgents: CallerIdentity;
  const clients: Client[] = [];

  before(async () => {
    @Module({
      imports: [
        AuthModule.forRoot({ audience: 'weather-server', dataDir: dir.path, auditSink: { useValue: audit } }),
        WeatherServerModule.forRoot(weatherConfig(), () => url),
      ],
    })
    class ProtectedWeatherModule {}
    app = await NestFactory.create(ProtectedWeatherModule, { bodyParser: false, logger: false });
    const gate = app.get(AuthorizationGate);
    app.use('/mcp', mcpHttpAuthMiddleware(gate, 'weather-server'));
    app.use('/s2sp/data', bearerAuthMiddleware(gate, { service: 'weather-server', protocol: 's2sp-data', requiredScopes: [S2SP_DATA_READ_SCOPE] }));
    const mcp = new McpStrategy({ name: 'weather-server', version: '0.1.0', transports: [new StreamableHttpTransport({ endpoint: '/mcp', statefulMode: true })] });
    mcp.setHttpAdapter(app.getHttpAdapter());
    app.connectMicroservice({ strategy: mcp });
    await app.startAllMicroservices();
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;

    minter = app.get(TokenMinter);
    const store = app.get(DevKeyStore);
    verifierFor = (audience) => new JwtTokenVerifier({ audience, issuer: 's2sp-dev', keys: { kind: 'dev', store } });
    // alice → gateway → agents, narrowing at each hop.
    const atGateway = await verifierFor('gateway').verify(
      await minter.mint({ subject: 'alice', scopes: ['weather:read', 'stats:chart', 's2sp:data:read', 'tasks:submit'], audience: 'gateway', ttlSeconds: 600 }),
    );
    atAgents = await verifierFor('agents').verify(await minter.narrowToken(atGateway, ['weather:read', 'stats:chart', 's2sp:data:read'], 'agents', 30_000));
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await app?.close();
    dir.remove();
  });

  async function issueResource(): Promise<string> {
    // The agents hop calls the weather server's MCP tool with a token narrowed to what the tool needs.
    const token = await minter.narrowToken(atAgents, ['weather:read'], 'weather-server', 20_000);
    const client = new Client({ name: 'agents', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearerHeaders(token) } }));
    clients.push(client);
    const result = await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } });
    return (result.structuredContent as { resource_url: string }).resource_url;
  }

  const fetchBody = (resourceUrl: string, headers: Record<string, string> = {}) =>
    fetch(resourceUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ row_ids: [0] }) });

  test('the consumer fetches with its own caller-scoped token; refusals do not burn the single-use resource', async () => {
    const resourceUrl = await issueResource();
    assert.match(resourceUrl, /\/s2sp\/data\/[A-Za-z0-9_-]{43}$/);

    // The consumer (stats-server) was called by the agents hop with a token for itself.
    const atStats = await verifierFor('stats-server').verify(await minter.narrowToken(atAgents, ['stats:chart', 's2sp:data:read'], 'stats-server', 20_000));
    const notForWeather = await minter.narrowToken(atAgents, ['stats:chart', 's2sp:data:read'], 'stats-server', 20_000);
    const noDataScope = await minter.narrowToken(atStats, ['stats:chart'], 'weather-server', 10_000);

    const anonymous = await fetchBody(resourceUrl);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="weather-server"');
    assert.deepEqual(await anonymous.json(), { error: { code: 'UNAUTHENTICATED', message: 'Invalid or expired credentials.' } });
    assert.equal((await fetchBody(resourceUrl, bearerHeaders(notForWeather))).status, 401, 'a token for another audience is refused');
    const forbidden = await fetchBody(resourceUrl, bearerHeaders(noDataScope));
    assert.equal(forbidden.status, 403);
    assert.equal(((await forbidden.json()) as { error: { message: string } }).error.message, 'Missing required scope: s2sp:data:read.');

    // The consumer's data-plane fetch: its caller's token narrowed to s2sp:data:read for the resource server.
    const consumerToken = await minter.narrowToken(atStats, ['s2sp:data:read'], 'weather-server', 10_000);
    const ok = await fetchBody(resourceUrl, bearerHeaders(consumerToken));
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { body: Array<{ _row_id: number }> };
    assert.deepEqual(body.body.map((row) => row._row_id), [0]);
    assert.equal((await fetchBody(resourceUrl, bearerHeaders(consumerToken))).status, 404, 'still single-use');

    const fetches = audit.events.filter((e) => e.protocol === 's2sp-data');
    assert.deepEqual(fetches.map((e) => e.outcome), ['unauthenticated', 'unauthenticated', 'missing-scopes', 'authorized', 'authorized']);
    const allowed = fetches[3]!;
    assert.equal(allowed.subject, 'alice');
    assert.deepEqual(allowed.delegatedBy, ['gateway', 'agents', 'stats-server']);
    assert.equal(allowed.operation, 'POST /s2sp/data');
    const token = resourceUrl.slice(resourceUrl.lastIndexOf('/') + 1);
    assert.ok(!JSON.stringify(audit.events).includes(token), 'the resource token is not in audit');
    assert.equal((await fetch(`${url}/s2sp/health`)).status, 200, 'health stays open');
  });
});
