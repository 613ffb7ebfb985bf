// MCP authorization the standard way: the weather server (its compiled main, configured only by
// S2SP_AUTH_ISSUER and S2SP_AUTH_JWKS_URL) in front of a real authorization server (oidc-provider),
// and the MCP SDK's own OAuth client: it discovers the Protected Resource Metadata from a 401,
// registers, runs authorization code + PKCE with the resource indicator, steps up on a 403
// insufficient_scope, and calls get_alerts; the data plane takes the same token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import { startApp, waitUntilReady, type AppProcess } from '../support/app-processes';
import { freePort } from '../support/free-port';
import { jsonOf } from '../support/mcp-client';
import { InMemoryOAuthClient } from '../support/oauth-browser';
import { startAuthorizationServer, type AuthorizationServer } from '../support/oidc-authorization-server';
import { tempDir } from '../support/temp-dir';

const SCOPES = ['s2sp:data:read', 'weather:read'];

describe('MCP authorization discovery against a real OAuth authorization server', { timeout: 180_000 }, () => {
  let authorizationServer: AuthorizationServer;
  let weather: AppProcess;
  let weatherUrl: string;
  const workDir = tempDir('s2sp-oauth-discovery-');

  before(async () => {
    authorizationServer = await startAuthorizationServer({
      scopes: SCOPES,
      subject: 'alice',
    });
    const port = await freePort();
    weatherUrl = `http://127.0.0.1:${port}`;
    weather = startApp(
      'weather-server',
      'weather-server',
      {
        WEATHER_PORT: String(port),
        WEATHER_DATA_DIR: ':memory:',
        S2SP_AUTH_DATA_DIR: workDir.path,
        S2SP_AUTH_ISSUER: authorizationServer.issuer,
        S2SP_AUTH_JWKS_URL: authorizationServer.jwksUrl,
        LOG_LEVELS: 'error,warn',
      },
      workDir.path,
    );
    await waitUntilReady(`${weatherUrl}/health`, async (response) => response.ok, [weather], 120_000);
  });

  after(async () => {
    await weather?.stop();
    await authorizationServer?.close();
    workDir.remove();
  });

  test('a 401 points to the metadata, which names the authorization server and the scopes', async () => {
    const refused = await fetch(`${weatherUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(refused.status, 401);
    const metadataUrl = `${weatherUrl}/.well-known/oauth-protected-resource/mcp`;
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer realm="weather-server", resource_metadata="${metadataUrl}", scope="${SCOPES.join(' ')}"`,
    );
    const metadata = await fetch(metadataUrl);
    assert.equal(metadata.status, 200);
    assert.equal(metadata.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await metadata.json(), {
      resource: `${weatherUrl}/mcp`,
      authorization_servers: [authorizationServer.issuer],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'weather-server',
    });
  });

  test('the SDK client signs in, steps up for weather:read, calls get_alerts, and the data plane takes its token', async () => {
    // At first only the data plane's scope is issued: the first get_alerts must step up.
    authorizationServer.issueOnly(['s2sp:data:read']);
    const oauth = new InMemoryOAuthClient();
    const endpoint = new URL(`${weatherUrl}/mcp`);
    const firstTry = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
    await assert.rejects(new Client({ name: 'oauth-test', version: '1.0.0' }).connect(firstTry), UnauthorizedError);
    const [login] = oauth.authorizations;
    assert.equal(login.origin, authorizationServer.issuer);
    assert.equal(login.searchParams.get('resource'), `${weatherUrl}/mcp`, 'RFC 8707 resource indicator');
    assert.equal(login.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(login.searchParams.get('scope'), SCOPES.join(' '), 'the scopes of the 401 challenge');
    await firstTry.finishAuth(oauth.takeCode());

    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(transport);
    const firstToken = decodeJwt(oauth.tokens()!.access_token);
    assert.equal(firstToken.aud, `${weatherUrl}/mcp`, 'the token is for this resource');
    assert.equal(firstToken.iss, authorizationServer.issuer);
    assert.equal(firstToken.scope, 's2sp:data:read');
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'get_alerts'));

    // The token lacks weather:read: 403 insufficient_scope, which the SDK answers by asking again.
    authorizationServer.issueOnly(SCOPES);
    await assert.rejects(client.callTool({ name: 'get_alerts', arguments: { area: 'CA' } }), UnauthorizedError);
    assert.equal(oauth.authorizations.length, 2);
    assert.equal(
      oauth.authorizations[1].searchParams.get('scope'),
      SCOPES.join(' '),
      'held scopes plus the missing one',
    );
    await transport.finishAuth(oauth.takeCode());
    assert.deepEqual(authorizationServer.consents, [['s2sp:data:read'], SCOPES]);

    const answer = jsonOf(
      await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    );
    assert.ok(answer.total_rows > 0);
    assert.match(answer.resource_url, /\/s2sp\/data\//);
    const accessToken = oauth.tokens()!.access_token;
    assert.equal(decodeJwt(accessToken).scope, SCOPES.join(' '));

    const withoutToken = await fetch(answer.resource_url, { method: 'POST' });
    assert.equal(withoutToken.status, 401);
    const rows = await fetch(answer.resource_url, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(rows.status, 200, await rows.clone().text());
    assert.equal(((await rows.json()) as { body: unknown[] }).body.length, answer.total_rows);
    await client.close();
  });
});
