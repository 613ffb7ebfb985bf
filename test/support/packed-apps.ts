// Packs this repository's workspaces and installs the tarballs into apps outside it, as a
// user would: used by test/packaging/packed-packages.test.ts and bench/footprint.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { freePort } from './free-port';
import { jsonOf, textOf } from './mcp-client';

export const REPO_ROOT = join(__dirname, '..', '..', '..');
/** The fixture apps (each a package.json, tsconfig.json and src/main.ts of a user's app). */
const APPS = join(REPO_ROOT, 'test', 'packaging', 'apps');
const NPM_TIMEOUT_MS = 8 * 60_000;

/**
 * The host app's packages, at the versions this repository is built and tested with, plus
 * the compiler and Node's types the app is type-checked with.
 */
function hostPackages(names: string[]): string[] {
  const { dependencies, devDependencies } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
  const versions = { ...dependencies, ...devDependencies };
  return [...names, 'typescript', '@types/node'].map((name) => (versions[name] ? `${name}@${versions[name]}` : name));
}

export function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = NPM_TIMEOUT_MS,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', ...env },
    });
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

export interface RunningApp {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface InstalledApp {
  dir: string;
  /** Starts `dist/main.js` with PORT (a free port) and `env`, and waits for its `LISTENING <url>` line. */
  start(env?: Record<string, string>): Promise<RunningApp>;
}

/**
 * Copies a fixture app into a fresh folder outside the repository, installs the given
 * tarballs with the host packages, and type-checks it with its own compiler (strict,
 * declarations of the packages checked too: skipLibCheck false).
 */
export async function installApp(name: string, tarballs: string[], hostPackageNames: string[]): Promise<InstalledApp> {
  const dir = mkdtempSync(join(tmpdir(), `s2sp-${name}-`));
  // The embedded PostgreSQL runs as another user, who must reach the app's data directory.
  chmodSync(dir, 0o755);
  cpSync(join(APPS, name), dir, { recursive: true });
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs, ...hostPackages(hostPackageNames)],
    dir,
  );
  await run(
    process.execPath,
    [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(dir, 'tsconfig.json')],
    dir,
  );
  return { dir, start: (env) => startApp(dir, env) };
}

export async function startApp(dir: string, env: Record<string, string> = {}): Promise<RunningApp> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(dir, 'dist', 'main.js')], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), ...env },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /LISTENING (\S+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]);
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
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** resource tool → resource_url → consumer tool → merged rows → a second fetch of the same URL refused. */
export async function driveAsyncFlow(url: string): Promise<void> {
  const client = new Client({ name: 'packaging-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    assert.deepEqual(tools, ['count_rows', 'get_alerts']);

    const answer = jsonOf(
      await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event,severity' } }),
    );
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
    const rows = (merged.rows as Array<Record<string, unknown>>).map(({ _row_id, kind, severity, description }) => ({
      _row_id,
      kind,
      severity,
      description,
    }));
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

/** `npm pack --workspaces` into `dir`: the tarball of each package, by its file name without the version (e.g. `s2sp-core`). */
export async function packWorkspaces(dir: string): Promise<Record<string, string>> {
  await run('npm', ['pack', '--workspaces', '--pack-destination', dir], REPO_ROOT);
  return Object.fromEntries(
    readdirSync(dir).map((file) => [file.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(dir, file)]),
  );
}

/** What an app that imports S2spModule needs, without the database package (as the README's install block says). */
export const MINIMAL_PACKAGES = ['s2sp-core', 's2sp-platform', 's2sp-protocol', 's2sp-auth', 's2sp-telemetry'];

/** The host packages the README's install block names for such an app. */
export const HOST_PACKAGES = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/microservices',
  '@nestjs/platform-express',
  '@rekog/mcp-nest',
  'zod',
  'reflect-metadata',
  'rxjs',
];
