import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RequestHostPolicy, type AllowedHost, type RunningMcpServer } from '@s2sp/core';
import { defaultAllowedHosts } from '@s2sp/platform/internal';
import { resolveS2spOptions } from '../../libs/s2sp/src/config/s2sp-options';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, HTTP_PLATFORMS, startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host-test', version: '1' } },
};

/** A POST with headers fetch() cannot set (Host). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const payload = JSON.stringify(body);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('RequestHostPolicy', () => {
  const loopback = (): RequestHostPolicy =>
    new RequestHostPolicy(
      () => defaultAllowedHosts({ address: '127.0.0.1', family: 'IPv4', port: 3101 }, undefined),
      undefined,
    );

  test('a loopback server answers to the loopback names on its bound port only', () => {
    const policy = loopback();
    for (const host of ['localhost:3101', '127.0.0.1:3101', '[::1]:3101', 'LOCALHOST:3101'])
      assert.equal(policy.refusal(host, undefined), undefined, host);
    for (const host of ['evil.example.com', 'evil.example.com:3101', 'localhost:9999', 'localhost'])
      assert.match(policy.refusal(host, undefined)?.message ?? '', /^Forbidden: Host/, host);
    assert.match(policy.refusal(undefined, undefined)?.message ?? '', /no valid Host/);
    assert.match(policy.refusal('a b', undefined)?.message ?? '', /no valid Host/);
  });

  test('a Host allowed before is refused once the allowed hosts change, and many spellings keep their verdicts', () => {
    let hosts: AllowedHost[] = [{ hostname: 'localhost', port: '3101' }];
    const policy = new RequestHostPolicy(() => hosts, undefined);
    assert.equal(policy.refusal('localhost:3101', undefined), undefined);
    assert.equal(policy.refusal('localhost:3101', undefined), undefined, 'asked again');
    hosts = [{ hostname: 'api.example.com' }];
    assert.match(policy.refusal('localhost:3101', undefined)?.message ?? '', /^Forbidden: Host "localhost:3101"/);
    assert.equal(policy.refusal('api.example.com:8443', undefined), undefined);

    // More distinct allowed spellings than the policy remembers: each still allowed, each foreign one still refused.
    const spellings = Array.from({ length: 40 }, (_, index) => `API.example.com:${8000 + index}`);
    for (const round of [1, 2]) {
      for (const host of spellings)
        assert.equal(policy.refusal(host, undefined), undefined, `${host} (round ${round})`);
      assert.match(policy.refusal('evil.example.com', undefined)?.message ?? '', /^Forbidden: Host/);
    }
  });

  test('a present Origin must be one of the allowed hosts; no Origin is fine', () => {
    const policy = loopback();
    assert.equal(policy.refusal('localhost:3101', 'http://localhost:3101'), undefined);
    assert.equal(policy.refusal('localhost:3101', 'http://127.0.0.1:3101'), undefined);
    assert.match(
      policy.refusal('localhost:3101', 'http://evil.example.com')?.message ?? '',
      /^Forbidden: Origin "http:\/\/evil.example.com"/,
    );
    assert.match(policy.refusal('localhost:3101', 'http://localhost:8080')?.message ?? '', /^Forbidden: Origin/);
    assert.match(policy.refusal('localhost:3101', 'null')?.message ?? '', /not an http\(s\) origin/);
  });

  test('the public URL’s host is allowed; a public bind without one pins no host but trusts no browser origin', () => {
    const hosts = defaultAllowedHosts(
      { address: '0.0.0.0', family: 'IPv4', port: 3101 },
      () => 'https://weather.example.com',
    );
    assert.deepEqual(hosts, [{ hostname: 'weather.example.com', port: '443' }]);
    const publicPolicy = new RequestHostPolicy(() => hosts, undefined);
    assert.equal(publicPolicy.refusal('weather.example.com', 'https://weather.example.com'), undefined);
    assert.match(publicPolicy.refusal('10.0.0.5:3101', undefined)?.message ?? '', /Host "10.0.0.5:3101"/);

    const open = new RequestHostPolicy(() => '*', undefined);
    assert.equal(open.refusal('10.0.0.5:3101', undefined), undefined);
    assert.match(open.refusal('10.0.0.5:3101', 'http://10.0.0.5:3101')?.message ?? '', /Origin/);
    assert.equal(
      new RequestHostPolicy(() => '*', ['http://app.example.com']).refusal('x', 'http://app.example.com'),
      undefined,
    );
  });

  test('S2spModule validates allowedHosts and allowedOrigins', () => {
    const resolved = resolveS2spOptions({
      allowedHosts: ['Api.Example.com', 'localhost:8443', '[::1]:3101', 'web.example:80'],
      allowedOrigins: ['https://app.example.com/'],
    });
    assert.deepEqual(resolved.allowedHosts, [
      { hostname: 'api.example.com' },
      { hostname: 'localhost', port: '8443' },
      { hostname: '[::1]', port: '3101' },
      { hostname: 'web.example', port: '80' },
    ]);
    assert.deepEqual(resolved.allowedOrigins, ['https://app.example.com']);
    assert.equal(resolveS2spOptions({ allowedHosts: ['*'] }).allowedHosts, '*');
    assert.equal(resolveS2spOptions({}).allowedHosts, undefined);
    assert.throws(() => resolveS2spOptions({ allowedHosts: [] }), /allowedHosts must be a non-empty list/);
    assert.throws(() => resolveS2spOptions({ allowedHosts: ['*', 'localhost'] }), /"\*" together/);
    assert.throws(
      () => resolveS2spOptions({ allowedHosts: ['http://localhost/'] }),
      /allowedHosts entry "http:\/\/localhost\/" is not a host name/,
    );
    assert.throws(() => resolveS2spOptions({ allowedHosts: ['user@host'] }), /is not a host name/);
    assert.throws(
      () => resolveS2spOptions({ allowedOrigins: ['localhost'] }),
      /allowedOrigins entry "localhost" is not an http\(s\) origin/,
    );
    assert.throws(() => resolveS2spOptions({ allowedOrigins: ['ftp://x.example'] }), /not an http\(s\) origin/);
  });
});

for (const platform of HTTP_PLATFORMS) {
  describe(`Host/Origin validation on /mcp and the data plane (${platform})`, () => {
    let weather: RunningMcpServer;
    let agent: Client;
    let authorization: string;
    let goodHost: string;

    before(async () => {
      weather = await startWeather({ platform, logger: false });
      agent = await connectMcp(weather.url);
      authorization = await bearerFor({ audience: 'weather-server' });
      goodHost = `localhost:${weather.port}`;
    });
    after(async () => {
      await agent?.close();
      await weather?.close();
    });

    test('POST /mcp with a foreign Host or Origin: 403 with a JSON-RPC error, before authentication', async () => {
      for (const headers of [
        { host: 'evil.example.com' },
        { host: 'evil.example.com', origin: 'http://evil.example.com' },
        { host: goodHost, origin: 'http://evil.example.com' },
      ] as Array<Record<string, string>>) {
        for (const auth of [{ authorization }, {}] as Array<Record<string, string>>) {
          const answer = await rawPost(`${weather.url}/mcp`, { ...headers, ...auth }, INITIALIZE);
          assert.equal(answer.status, 403, JSON.stringify(headers));
          const body = JSON.parse(answer.text);
          assert.equal(body.jsonrpc, '2.0');
          assert.equal(body.id, null);
          assert.equal(body.error.code, -32000);
          assert.match(body.error.message, /^Forbidden: (Host|Origin) "/);
          assert.doesNotMatch(answer.text, /\n\s+at /);
        }
      }
    });

    test('POST /mcp with a loopback Host (any loopback name) and a matching Origin or none: served', async () => {
      for (const headers of [
        { host: goodHost },
        { host: `127.0.0.1:${weather.port}`, origin: `http://localhost:${weather.port}` },
        { host: `[::1]:${weather.port}` },
      ] as Array<Record<string, string>>) {
        const answer = await rawPost(`${weather.url}/mcp`, { ...headers, authorization }, INITIALIZE);
        assert.equal(answer.status, 200, `${JSON.stringify(headers)}: ${answer.text}`);
      }
    });

    test('the data plane refuses a foreign Host or Origin with its error shape and leaves the single-use resource usable', async () => {
      const { resource_url } = jsonOf<{ resource_url: string }>(
        await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      for (const headers of [
        { host: 'evil.example.com' },
        { host: goodHost, origin: 'http://evil.example.com' },
      ] as Array<Record<string, string>>) {
        const refused = await rawPost(resource_url, { ...headers, authorization }, {});
        assert.equal(refused.status, 403);
        const body = JSON.parse(refused.text);
        assert.equal(body.error.code, 'FORBIDDEN');
        assert.match(body.error.message, /^Forbidden: (Host|Origin) "/);
      }
      const served = await fetchResource(resource_url, {});
      assert.equal(served.status, 200, JSON.stringify(served.json));
      assert.equal((await fetchResource(resource_url, {})).status, 404, 'the fetch that succeeded consumed it');
    });
  });
}

test('configured allowedHosts and allowedOrigins replace the defaults', async () => {
  const weather = await startWeather({
    logger: false,
    allowedHosts: ['mcp.internal.example'],
    allowedOrigins: ['https://console.example.com'],
  });
  try {
    const authorization = await bearerFor({ audience: 'weather-server' });
    assert.equal(
      (await rawPost(`${weather.url}/mcp`, { host: `localhost:${weather.port}`, authorization }, INITIALIZE)).status,
      403,
    );
    assert.equal(
      (await rawPost(`${weather.url}/mcp`, { host: 'mcp.internal.example', authorization }, INITIALIZE)).status,
      200,
    );
    assert.equal(
      (
        await rawPost(
          `${weather.url}/mcp`,
          { host: 'mcp.internal.example', origin: 'https://console.example.com', authorization },
          INITIALIZE,
        )
      ).status,
      200,
    );
    assert.equal(
      (
        await rawPost(
          `${weather.url}/mcp`,
          { host: 'mcp.internal.example', origin: 'http://mcp.internal.example', authorization },
          INITIALIZE,
        )
      ).status,
      403,
    );
  } finally {
    await weather.close();
  }
});
