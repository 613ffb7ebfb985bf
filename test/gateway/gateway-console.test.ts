import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ExecutionContext } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import { decodeJwt } from 'jose';
import {
  defaultGatewayConfig,
  gatewayConfigFromEnv,
  validateGatewayConfig,
} from '../../libs/gateway/src/gateway.config';
import { defaultConsoleOptions } from '../../libs/gateway/src/console/console-options';
import { DevTokenRequestGuard } from '../../libs/gateway/src/console/dev-token-request.guard';
import { FakeAgents } from '../support/fake-agents';
import { removeTempDirs, startTestGateway, type TestGateway } from '../support/gateway-harness';
import { fakeConsoleAssets } from '../support/console-assets';
import { withEnv } from '../support/with-env';

describe('gateway console: files, headers and the dev-token endpoint', () => {
  const assets = fakeConsoleAssets();
  let fake: FakeAgents;
  let dev: TestGateway;
  let production: TestGateway;

  before(async () => {
    writeFileSync(join(assets.path, '.secret.js'), 'not served');
    fake = await FakeAgents.start();
    dev = await startTestGateway(fake, {
      console: { enabled: true, assetsDir: assets.path, devTokens: true, devTokenTtlSeconds: 600 },
    });
    production = await startTestGateway(fake, {
      console: { enabled: true, assetsDir: assets.path, devTokens: false, devTokenTtlSeconds: 600 },
    });
  });

  after(async () => {
    await dev?.close();
    await production?.close();
    await fake?.stop();
    await removeTempDirs();
    assets.remove();
  });

  test('GET /console and its files: the right content types, a strict CSP and no sniffing on every answer', async () => {
    for (const [path, type] of [
      ['/console', /^text\/html; charset=utf-8/],
      ['/console/console.js', /^text\/javascript; charset=utf-8/],
      ['/console/console.css', /^text\/css; charset=utf-8/],
    ] as const) {
      const response = await fetch(`${dev.gateway.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /style-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  test('only the files of the build, by exact name: no traversal, no dot files, no directories', async () => {
    for (const path of [
      '/console/..%2Fpackage.json',
      '/console/%2e%2e%2f%2e%2e%2fpackage.json',
      '/console/.secret.js',
      '/console/missing.js',
      '/console/a/b',
    ]) {
      const response = await fetch(`${dev.gateway.url}${path}`);
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(await response.text(), /s2sp-nest|not served/, path);
    }
  });

  test('GET /console/ (with the slash) redirects to /console', async () => {
    const response = await fetch(`${dev.gateway.url}/console/`, { redirect: 'manual' });
    assert.equal(response.status, 308);
    assert.equal(response.headers.get('location'), '/console');
    const followed = await fetch(`${dev.gateway.url}/console/`);
    assert.equal(followed.status, 200);
    assert.match(followed.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('the dev-token endpoint mints a gateway token for the subject and scopes asked for, and checks what it is given', async () => {
    const minted = await fetch(`${dev.gateway.url}/console/api/dev-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-s2sp-console': '1' },
      body: JSON.stringify({ subject: 'dana', scopes: ['tasks:read', 'tools:list'] }),
    });
    assert.equal(minted.status, 200);
    const { token, expires_in } = (await minted.json()) as { token: string; expires_in: number };
    const claims = decodeJwt(token);
    assert.equal(claims.sub, 'dana');
    assert.equal(claims.aud, 'gateway');
    assert.equal(expires_in, 600);
    const listed = await dev.post(
      { jsonrpc: '2.0', id: 1, method: 'tools.list', params: {} },
      { authorization: `Bearer ${token}` },
    );
    assert.ok(listed.json.result, 'the minted token is accepted by POST /rpc');

    for (const body of [
      { subject: '', scopes: [] },
      { subject: 'dana', scopes: ['not a scope'] },
      { subject: 'dana', scopes: [], extra: 1 },
      [],
    ]) {
      const refused = await fetch(`${dev.gateway.url}/console/api/dev-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-s2sp-console': '1' },
        body: JSON.stringify(body),
      });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(((await refused.json()) as { message: string }).message, /^dev token: /);
    }
  });

  test('with dev tokens off the endpoint does not exist, and the console says so before sign-in', async () => {
    const response = await fetch(`${production.gateway.url}/console/api/dev-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'mallory', scopes: ['tasks:read'] }),
    });
    assert.equal(response.status, 404);
    const settings = (await (await fetch(`${production.gateway.url}/console/api/settings`)).json()) as {
      devTokens: boolean;
    };
    assert.equal(settings.devTokens, false);
  });

  test('in production dev tokens are off by default, refused when asked for, and never minted', () => {
    withEnv({ NODE_ENV: 'production', S2SP_AUTH_ALLOW_DEV_KEY: '1', GATEWAY_CONSOLE_DEV_TOKENS: undefined }, () => {
      const consoleOptions = gatewayConfigFromEnv().console;
      assert.equal(consoleOptions?.production, true, 'gatewayConfigFromEnv reads NODE_ENV=production');
      assert.equal(consoleOptions?.devTokens, false);
    });
    withEnv({ NODE_ENV: 'production', S2SP_AUTH_ALLOW_DEV_KEY: '1', GATEWAY_CONSOLE_DEV_TOKENS: '1' }, () => {
      assert.throws(() => gatewayConfigFromEnv(), /console.devTokens must be false in production/);
    });
    withEnv({ NODE_ENV: 'development', GATEWAY_CONSOLE_DEV_TOKENS: undefined }, () =>
      assert.equal(gatewayConfigFromEnv().console?.devTokens, true),
    );
    const inProduction = { ...defaultConsoleOptions({ production: true }) };
    assert.equal(inProduction.devTokens, false);
    const config = { ...defaultGatewayConfig(), console: { ...inProduction, devTokens: true } };
    assert.throws(() => validateGatewayConfig(config), /console.devTokens must be false in production/);
    const guard = new DevTokenRequestGuard({} as HttpAdapterHost, inProduction);
    const request = { headers: { 'x-s2sp-console': '1' }, socket: { remoteAddress: '127.0.0.1' } };
    const context = { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
    assert.throws(() => guard.canActivate(context), /dev tokens are never minted in production/);
  });
});
