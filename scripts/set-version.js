#!/usr/bin/env node
// Sets one version for the whole set of @s2sp packages, in one place:
//   node scripts/set-version.js 0.2.0
// writes it into the root package.json, every libs/*/package.json, and every @s2sp/*
// dependency between them (exact versions: the packages are released together), then
// refreshes package-lock.json. test/packaging/package-versions.test.ts checks they agree.
'use strict';
const { readdirSync, readFileSync, writeFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');

const version = process.argv[2];
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version ?? '')) {
  console.error('usage: node scripts/set-version.js <semver, e.g. 0.2.0>');
  process.exit(2);
}
const root = join(__dirname, '..');
const manifests = [
  join(root, 'package.json'),
  ...readdirSync(join(root, 'libs'))
    .map((lib) => join(root, 'libs', lib, 'package.json'))
    .filter(existsSync),
];
for (const path of manifests) {
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  manifest.version = version;
  for (const field of ['dependencies', 'peerDependencies']) {
    for (const name of Object.keys(manifest[field] ?? {}))
      if (name.startsWith('@s2sp/')) manifest[field][name] = version;
  }
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}
execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
console.log(`set-version: ${manifests.length} package.json files at ${version}`);
