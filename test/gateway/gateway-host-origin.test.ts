import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  gatewayConfigFromEnv,
  validateGatewayConfig,
  defaultGatewayConfig,
} from '../../libs/gateway/src/gateway.config';
import { CapturedLogs } from '../support/captured-logs';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, startTestGateway, type TestGateway } from '../support/gateway-harness';
import { fakeConsoleAssets } from '../support/console-assets';
import { withEnv } from '../support/with-env';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with headers fetch() cannot set (Host), as a page on a rebinding domain would send it. */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path,
        method,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const MINT = { subject: 'mallory', scopes: ['tools:call', 'tasks:submit'] };

/** Every gateway route a page could use: method, path, body. */
const ROUTES: Array<[string, string, unknown]> = [
  ['POST', '/rpc', { jsonrpc: '2.0', id: 1, method: 'rpc.discover' }],
  ['POST', '/rpc', { jsonrpc: '2.0', id: 1, method: 'agent.streamTask', params: { task_id: 'x' } }],
  ['GET', '/console', undefined],
  ['GET', '/console/console.js', undefined],
  ['GET', '/console/api/settings', undefined],
  ['POST', '/console/api/dev-token', MINT],
  ['GET', '/schemas', undefined],
];

describe('gateway: foreign Host and Origin are refused on every route (DNS-rebinding protection)', () => {
  const assets = fakeConsoleAssets();
  const logs = new CapturedLogs();
  let fake: FakeAgents;
  let gw: TestGateway;
  let port: string;

  before(async () => {
    fake = await FakeAgents.start();
    gw = await startTestGateway(fake, {
      logger: logs.logger,
      console: { enabled: true, assetsDir: assets.path, devTokens: true, devTokenTtlSeconds: 600 },
    });
    port = String(gw.gateway.port);
  });

  after(async () => {
    await gw?.close();
    await fake?.stop();
    await removeTempDirs();
    assets.remove();
  });

  test('a foreign Host gets 403 with a JSON body naming the host check, on each route, before any handler', async () => {
    for (const [method, path, body] of ROUTES) {
      const answer = await raw(gw.gateway.url, method, path, { host: `evil.example:${port}` }, body);
      assert.equal(answer.status, 403, `${method} ${path}`);
      const json = JSON.parse(answer.text) as { check: string; message: string };
      assert.equal(json.check, 'host', `${method} ${path}`);
      assert.match(json.message, /Host "evil.example:\d+" is not allowed .*GATEWAY_ALLOWED_HOSTS/);
      assert.doesNotMatch(answer.text, /token/);
    }
  });

  test('a foreign Origin gets 403 naming the origin check, on each route', async () => {
    for (const [method, path, body] of ROUTES) {
      const answer = await raw(
        gw.gateway.url,
        method,
        path,
        { host: `127.0.0.1:${port}`, origin: 'http://evil.example', 'x-s2sp-console': '1' },
        body,
      );
      assert.equal(answer.status, 403, `${method} ${path}`);
      const json = JSON.parse(answer.text) as { check: string; message: string };
      assert.equal(json.check, 'origin', `${method} ${path}`);
      assert.match(json.message, /Origin "http:\/\/evil.example" is not allowed .*GATEWAY_ALLOWED_ORIGINS/);
    }
  });

  test('a CORS preflight from a foreign origin is refused and no CORS header is ever sent', async () => {
    for (const path of ['/rpc', '/console/api/dev-token']) {
      const preflight = await raw(gw.gateway.url, 'OPTIONS', path, {
        host: `127.0.0.1:${port}`,
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-s2sp-console',
      });
      assert.equal(preflight.status, 403, path);
      assert.equal(preflight.headers['access-control-allow-origin'], undefined, path);
    }
    const allowed = await raw(
      gw.gateway.url,
      'POST',
      '/rpc',
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      ROUTES[0][2],
    );
    assert.equal(allowed.headers['access-control-allow-origin'], undefined);
  });

  test('the loopback names on the bound port pass; /health and /metrics stay reachable under any Host', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const answer = await raw(gw.gateway.url, 'GET', '/console/api/settings', { host, origin: `http://${host}` });
      assert.equal(answer.status, 200, host);
    }
    for (const path of ['/health', '/health/live', '/metrics']) {
      const answer = await raw(gw.gateway.url, 'GET', path, { host: '10.0.0.7' });
      assert.notEqual(answer.status, 403, path);
    }
  });

  test("the dev token is minted for the console's own origin, or its header without an Origin; refused otherwise, logged without the body", async () => {
    const own = await raw(
      gw.gateway.url,
      'POST',
      '/console/api/dev-token',
      { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` },
      MINT,
    );
    assert.equal(own.status, 200, own.text);
    assert.ok((JSON.parse(own.text) as { token?: string }).token);
    const header = await raw(
      gw.gateway.url,
      'POST',
      '/console/api/dev-token',
      { host: `127.0.0.1:${port}`, 'x-s2sp-console': '1' },
      MINT,
    );
    assert.equal(header.status, 200, header.text);

    logs.clear();
    const bare = await raw(gw.gateway.url, 'POST', '/console/api/dev-token', { host: `127.0.0.1:${port}` }, MINT);
    assert.equal(bare.status, 403);
    assert.match((JSON.parse(bare.text) as { message: string }).message, /x-s2sp-console/);
    // Another allowed host's origin is not the console's own origin: a page elsewhere on the machine.
    const sibling = await raw(
      gw.gateway.url,
      'POST',
      '/console/api/dev-token',
      { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` },
      MINT,
    );
    assert.equal(sibling.status, 403);
    assert.match((JSON.parse(sibling.text) as { message: string }).message, /not the console's own origin/);

    const refusals = logs.lines.filter((line) => JSON.stringify(line).includes('refused a dev-token request'));
    assert.equal(refusals.length, 2, JSON.stringify(logs.lines));
    for (const line of refusals) assert.doesNotMatch(JSON.stringify(line), /mallory|tasks:submit/);
  });
});

describe('gateway: allowlists of its own, a public URL, and dev tokens only on loopback', () => {
  const assets = fakeConsoleAssets();
  let fake: FakeAgents;
  let exposed: TestGateway;

  before(async () => {
    fake = await FakeAgents.start();
    exposed = await startTestGateway(fake, {
      host: '0.0.0.0',
      publicUrl: 'https://gw.example.com',
      allowedOrigins: ['https://app.example.com'],
      console: { enabled: true, assetsDir: assets.path, devTokens: true, devTokenTtlSeconds: 600 },
    });
  });

  after(async () => {
    await exposed?.close();
    await fake?.stop();
    await removeTempDirs();
    assets.remove();
  });

  test("bound to 0.0.0.0, the public URL's host is allowed and other hosts are refused; allowedOrigins replaces the default origins", async () => {
    const url = exposed.gateway.url;
    assert.equal((await raw(url, 'GET', '/console/api/settings', { host: 'gw.example.com' })).status, 200);
    assert.equal(
      (await raw(url, 'GET', '/console/api/settings', { host: `127.0.0.1:${exposed.gateway.port}` })).status,
      403,
    );
    assert.equal(
      (await raw(url, 'GET', '/console/api/settings', { host: 'gw.example.com', origin: 'https://app.example.com' }))
        .status,
      200,
    );
    assert.equal(
      (await raw(url, 'GET', '/console/api/settings', { host: 'gw.example.com', origin: 'https://gw.example.com' }))
        .status,
      403,
    );
  });

  test('the dev token is refused while the gateway is bound to a non-loopback address, even same-origin', async () => {
    const answer = await raw(
      exposed.gateway.url,
      'POST',
      '/console/api/dev-token',
      { host: 'gw.example.com', 'x-s2sp-console': '1' },
      MINT,
    );
    assert.equal(answer.status, 403);
    assert.match((JSON.parse(answer.text) as { message: string }).message, /loopback/);
  });

  test('GATEWAY_PUBLIC_URL, GATEWAY_ALLOWED_HOSTS and GATEWAY_ALLOWED_ORIGINS are read and validated like the MCP servers’ lists', () => {
    withEnv(
      {
        GATEWAY_PUBLIC_URL: 'https://gw.example.com',
        GATEWAY_ALLOWED_HOSTS: 'gw.example.com, localhost:3000',
        GATEWAY_ALLOWED_ORIGINS: '*',
      },
      () => {
        const config = gatewayConfigFromEnv();
        assert.equal(config.publicUrl, 'https://gw.example.com');
        assert.deepEqual(config.allowedHosts, ['gw.example.com', 'localhost:3000']);
        assert.deepEqual(config.allowedOrigins, ['*']);
      },
    );
    withEnv({ GATEWAY_ALLOWED_HOSTS: 'http://gw.example.com/' }, () => {
      assert.throws(
        () => gatewayConfigFromEnv(),
        /Gateway config: allowedHosts entry "http:\/\/gw.example.com\/" is not a host name/,
      );
    });
    assert.throws(
      () => validateGatewayConfig({ ...defaultGatewayConfig(), allowedOrigins: ['*', 'https://a.example'] }),
      /Gateway config: allowedOrigins lists "\*"/,
    );
    assert.throws(
      () => validateGatewayConfig({ ...defaultGatewayConfig(), publicUrl: 'gw.example.com' }),
      /publicUrl must be an http\(s\) URL/,
    );
  });
});
