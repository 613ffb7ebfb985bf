import assert from 'node:assert/strict';

import { join } from 'node:path';
import { describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { RESOURCE_STORE, S2SP_DATABASE, type ResourceStore } from '@s2sp/core';
import type { S2spDatabase } from '@s2sp/database';
import { eventually } from '../support/eventually';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { openPostgresTestDatabase, postgresSkipReason, postgresTestUrl } from '../support/databases';
import { fetchResource, startWeather, tempDir } from '../support/stack';

const distRoot = join(__dirname, '..', '..');

async function issueResource(baseUrl: string): Promise<{ resource_url: string; total_rows: number }> {
  const agent = await connectMcp(baseUrl);
  try {
    return jsonOf(
      await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    ) as never;
  } finally {
    await agent.close();
  }
}

/** The weather server's stdio entry point on its own data directory, its data plane on a free port. */
function spawnStdioWeather(dataDir: string, env: NodeJS.ProcessEnv = {}) {
  return spawnJsonLines(process.execPath, [join(distRoot, 'apps/weather-server/src/stdio.js')], {
    ...process.env,
    WEATHER_PORT: '0',
    WEATHER_DATA_DIR: dataDir,
    ...env,
  });
}

/**
 * A child process spoken to in newline-delimited JSON-RPC on stdin/stdout (the MCP stdio
 * transport), with everything it writes to stdout and stderr kept, byte for byte, for
 * assertions about which stream carries what.
 */
function spawnJsonLines(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiting = new Map<number, (message: any) => void>();
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    pending += chunk.toString('utf8');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      let message: { id?: unknown } | undefined;
      try {
        message = JSON.parse(line) as { id?: unknown };
      } catch {
        continue; // kept in stdout for the assertions
      }
      if (typeof message.id === 'number') waiting.get(message.id)?.(message);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const write = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    request(id: number, method: string, params: object): Promise<any> {
      const answered = new Promise<any>((resolve) => waiting.set(id, resolve));
      write({ id, method, params });
      return Promise.race([
        answered,
        exited.then(() => {
          throw new Error(`the server exited before answering ${method}: ${stderr}`);
        }),
      ]);
    },
    notify(method: string): void {
      write({ method });
    },
    async stop(): Promise<void> {
      child.stdin.end();
      child.kill('SIGTERM');
      await exited;
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

describe('resource lifecycle', () => {
  test('a resource_url expires after its TTL and the sweeper removes it', async () => {
    const weather = await startWeather({ resourceTtlMs: 300, sweepIntervalMs: 100 });
    try {
      const resource = await issueResource(weather.url);
      const resources = weather.app.get<S2spDatabase>(S2SP_DATABASE).client.s2spResource;
      assert.equal(await resources.count(), 1);
      // Nothing here sweeps: the row goes only when the background sweeper has run after the TTL.
      await eventually(
        'the background sweeper to remove the expired resource',
        async () => (await resources.count()) === 0,
      );
      const store = weather.app.get<ResourceStore>(RESOURCE_STORE);
      assert.equal(await store.sweepExpired(), 0, 'nothing was left for a sweep to remove');
      const response = await fetchResource(resource.resource_url);
      assert.equal(response.status, 404);
      assert.equal(response.json.error.code, 'RESOURCE_NOT_FOUND');
    } finally {
      await weather.close();
    }
  });

  test('an expired resource is refused even before the sweeper runs', async () => {
    const weather = await startWeather({ resourceTtlMs: 60_000, sweepIntervalMs: 0 });
    try {
      const resource = await issueResource(weather.url);
      // The store's clock moves past the TTL instead of the test waiting for it: the data plane asks
      // the store with its default `now`, which these wrappers replace with a time two minutes on.
      const store = weather.app.get<ResourceStore>(RESOURCE_STORE);
      const later = () => new Date(Date.now() + 120_000);
      const [findLive, claim] = [store.findLive.bind(store), store.claim.bind(store)];
      store.findLive = (tokenHash) => findLive(tokenHash, later());
      store.claim = (tokenHash) => claim(tokenHash, later());
      assert.equal((await fetchResource(resource.resource_url)).status, 404);
    } finally {
      await weather.close();
    }
  });

  test('a resource server restarted inside the TTL still serves its outstanding resource_urls (embedded PostgreSQL data dir)', async () => {
    const dir = tempDir('s2sp-restart-');
    try {
      const first = await startWeather({ dataDir: dir.path });
      const resource = await issueResource(first.url);
      await first.close();
      assert.notEqual(
        (await fetchResource(resource.resource_url).catch(() => ({ status: 0 }))).status,
        200,
        'the server is down',
      );

      const second = await startWeather({ dataDir: dir.path, port: first.port });
      try {
        const response = await fetchResource(resource.resource_url, { row_ids: [0, 1] });
        assert.equal(response.status, 200);
        assert.deepEqual(
          response.json.body.map((row: { _row_id: number }) => row._row_id),
          [0, 1],
        );
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });

  test('a resource server on PostgreSQL (DATABASE_URL) serves its resource_urls across a restart', async (t) => {
    const database = await openPostgresTestDatabase();
    if (!database) {
      t.skip(await postgresSkipReason());
      return;
    }
    const url = new URL(postgresTestUrl());
    url.searchParams.set('schema', database.schema);
    try {
      const first = await startWeather({ databaseUrl: url.toString() });
      const resource = await issueResource(first.url);
      await first.close();
      const second = await startWeather({ databaseUrl: url.toString(), port: first.port });
      try {
        assert.equal((await fetchResource(resource.resource_url, { row_ids: [0] })).status, 200);
        assert.equal((await fetchResource(resource.resource_url, { row_ids: [0] })).status, 404);
        const stored = await database.client.s2spResource.count({ where: { consumedAt: { not: null } } });
        assert.equal(stored, 1, 'the resource lived in the PostgreSQL schema');
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  });

  test('over stdio a tool call written before the server started is answered with a resource_url (the data plane listens first)', async () => {
    const dir = tempDir('s2sp-stdio-eager-');
    const server = spawnStdioWeather(dir.path);
    try {
      // All written at once, as a desktop client may: the server reads them the moment its transport starts.
      const initialized = server.request(1, 'initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'stdio-eager', version: '1.0.0' },
      });
      server.notify('notifications/initialized');
      const called = server.request(2, 'tools/call', {
        name: 'get_alerts',
        arguments: { area: 'WA', abstract_domains: 'event' },
      });
      assert.ok((await initialized).result);
      const text: string = (await called).result.content[0].text;
      assert.match(text, /"resource_url":"http:\/\/[^"]+\/s2sp\/data\//, text);
      const answer = JSON.parse(text) as { resource_url: string };
      assert.equal((await fetchResource(answer.resource_url, { row_ids: [0] })).status, 200);
    } finally {
      await server.stop();
      dir.remove();
    }
  });

  test('the stdio entry point speaks MCP on stdout only, logs on stderr, and still serves its data plane over HTTP', async () => {
    const dir = tempDir('s2sp-stdio-');
    // Info-level logs on, so that there are logs to go astray.
    const server = spawnStdioWeather(dir.path, { LOG_LEVELS: 'log,error,warn' });
    try {
      const initialized = await server.request(1, 'initialize', {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'stdio-e2e', version: '1.0.0' },
      });
      assert.equal(initialized.result.serverInfo.name.length > 0, true);
      server.notify('notifications/initialized');
      const called = await server.request(2, 'tools/call', {
        name: 'get_alerts',
        arguments: { area: 'WA', abstract_domains: 'event' },
      });
      const answer = JSON.parse(called.result.content[0].text);
      const response = await fetchResource(answer.resource_url);
      assert.equal(response.status, 200);
      assert.equal(response.json.body.length, answer.total_rows);
    } finally {
      await server.stop();
      dir.remove();
    }

    const stdoutLines = server
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    assert.deepEqual(
      stdoutLines.map((line) => (JSON.parse(line) as { jsonrpc?: unknown; id?: unknown }).jsonrpc),
      stdoutLines.map(() => '2.0'),
      'every line on stdout is a JSON-RPC message',
    );
    assert.deepEqual(
      stdoutLines.map((line) => (JSON.parse(line) as { id?: unknown }).id).filter((id) => id !== undefined),
      [1, 2],
      'stdout carries the answers to the two requests',
    );
    const stderrLines = server
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    assert.ok(
      stderrLines.some((line) => line.includes('"message":"Starting Nest application..."')),
      `the start-up log is on stderr: ${server.stderr().slice(0, 500)}`,
    );
    assert.ok(
      stderrLines.every((line) => !line.includes('"jsonrpc"')),
      'no protocol message on stderr',
    );
  });
});
