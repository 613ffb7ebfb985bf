#!/usr/bin/env node
// Runs every compiled test file under dist/test with Node's test runner.
// Node 20 takes explicit files, so they are listed here.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

const filter = process.argv[2];
const files = testFiles(join(__dirname, '..', 'dist', 'test'))
  .filter((file) => !filter || file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('No compiled test files found: run `npm run build` first.');
  process.exit(1);
}
// Servers started by tests log only warnings and errors unless LOG_LEVELS says otherwise.
const env = { ...process.env, LOG_LEVELS: process.env.LOG_LEVELS ?? 'error,warn' };
const result = spawnSync(process.execPath, ['--test', '--test-timeout=180000', ...files], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
