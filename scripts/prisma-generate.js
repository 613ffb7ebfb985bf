#!/usr/bin/env node
// Generates the Prisma client (libs/database/src/generated) before tsc.
//
// Runs offline: Prisma 7 insists that a schema-engine binary exists even though
// `generate` never runs it, and the binary cannot be downloaded here, so we point
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file. Migrations use the wasm
// engine instead (libs/database/src/schema-engine.ts).
//
// Skips work when a stamp (hash of the schema + Prisma versions) in the output
// folder matches: mtimes are unreliable after git checkout or npm ci.
'use strict';

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const schemaPath = path.join(root, 'prisma', 'schema.prisma');
const outputDir = path.join(root, 'libs', 'database', 'src', 'generated');
const stampPath = path.join(outputDir, '.generate-stamp');
const force = process.argv.includes('--force');

function packageVersion(name) {
  try {
    return require(require.resolve(`${name}/package.json`, { paths: [root] })).version;
  } catch {
    return 'missing';
  }
}

function currentStamp() {
  const hash = crypto.createHash('sha256');
  hash.update(fs.readFileSync(schemaPath));
  hash.update(`\0prisma@${packageVersion('prisma')}\0@prisma/client@${packageVersion('@prisma/client')}`);
  return hash.digest('hex');
}

function readStamp() {
  try {
    return fs.readFileSync(stampPath, 'utf8').trim();
  } catch {
    return null;
  }
}

function main() {
  const stamp = currentStamp();
  if (!force && readStamp() === stamp && fs.existsSync(path.join(outputDir, 'client.ts'))) {
    console.error('prisma-generate: client up to date, skipped');
    return;
  }

  const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json', { paths: [root] })), 'build', 'index.js');
  const started = Date.now();
  const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schemaPath], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || __filename,
      // No update check / telemetry: the build must not touch the network.
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });

  if (result.status !== 0) {
    process.stderr.write(result.stdout || '');
    process.stderr.write(result.stderr || '');
    if (result.error) console.error(result.error.message);
    console.error(`prisma-generate: failed (exit ${result.status})`);
    process.exit(result.status || 1);
  }

  fs.writeFileSync(stampPath, `${stamp}\n`);
  console.error(`prisma-generate: generated client in ${Date.now() - started} ms`);
}

main();
