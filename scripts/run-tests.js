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

// `node scripts/run-tests.js [<part-of-path>...]`: the files whose path contains any of them (all when none).
const filters = process.argv.slice(2);
const files = testFiles(join(__dirname, '..', 'dist', 'test'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error('No compiled test files found: run `npm run build` first.');
  process.exit(1);
}
/**
 * The interop test's Python MCP SDK lives in a virtual environment made once per machine
 * (test/support/python.ts); its first install takes minutes, longer than the runner's
 * per-file timeout, so it is made here, before the runner starts, when that test is selected.
 */
async function preparePythonInterop() {
  if (!files.some((file) => file.includes(join('test', 'interop')))) return;
  const python = require(join(__dirname, '..', 'dist', 'test', 'support', 'python.js'));
  if (python.python3SkipReason() !== undefined) return; // the test skips, saying why
  const started = Date.now();
  await python.pythonWithMcpSdk();
  const seconds = Math.round((Date.now() - started) / 1000);
  if (seconds > 1) console.error(`run-tests: made the Python MCP SDK environment for the interop test in ${seconds} s`);
}

// Servers started by tests log only warnings and errors unless LOG_LEVELS says otherwise.
const env = { ...process.env, LOG_LEVELS: process.env.LOG_LEVELS ?? 'error,warn' };
preparePythonInterop().then(
  () => {
    // The usual report on stdout (as node --test picks it), and the ten slowest files on stderr at the end.
    const reporters = [
      `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(__dirname, 'slowest-test-files.mjs')}`,
      '--test-reporter-destination=stderr',
    ];
    const result = spawnSync(process.execPath, ['--test', '--test-timeout=180000', ...reporters, ...files], {
      stdio: 'inherit',
      env,
    });
    process.exit(result.status ?? 1);
  },
  (error) => {
    console.error(`run-tests: could not make the Python MCP SDK environment for the interop test: ${error.message}`);
    process.exit(1);
  },
);
