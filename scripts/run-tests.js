#!/usr/bin/env node
// Runs every compiled test file under dist/test with Node's test runner.
// Node 20 takes explicit files, so they are listed here.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join, sep } = require('node:path');
const { spawnSync } = require('node:child_process');

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.js') ? [path] : [];
  });
}

/**
 * Files that take a minute or more, started first so that the run does not end waiting for one
 * of them alone; the rest follow in path order. Only an order: a file missing here just starts later.
 */
const LONG_RUNNING = [
  'packaging/packed-packages',
  'architecture/style',
  'docs/runnable-examples',
  'architecture/api-reports',
  'e2e/graceful-shutdown',
  'e2e/replica-leases',
  'e2e/platform-path',
].map((part) => part.split('/').join(sep));
const startsEarly = (file) => {
  const rank = LONG_RUNNING.findIndex((part) => file.includes(part));
  return rank === -1 ? LONG_RUNNING.length : rank;
};

// `node scripts/run-tests.js [<part-of-path>...]`: the files whose path contains any of them (all when none).
const filters = process.argv.slice(2);
const files = testFiles(join(__dirname, '..', 'dist', 'test'))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort((a, b) => startsEarly(a) - startsEarly(b) || a.localeCompare(b));

/**
 * Test files run side by side, as many as the machine has cores and at least two: most of a
 * file's time is spent in the servers it starts, so one file alone leaves a core idle.
 * S2SP_TEST_CONCURRENCY overrides (1: one file at a time).
 */
const concurrency = Number(process.env.S2SP_TEST_CONCURRENCY ?? Math.max(2, availableParallelism()));
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`S2SP_TEST_CONCURRENCY must be a positive integer, got ${process.env.S2SP_TEST_CONCURRENCY}`);
  process.exit(1);
}
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
// Every test process, and every server it starts with this Node, keeps the bytecode of the modules
// it compiles in Node's compile cache, so the next process loads them faster (each loads Nest and
// the packages anew); NODE_COMPILE_CACHE set by the caller wins, npm ci discards the default one.
const env = {
  ...process.env,
  LOG_LEVELS: process.env.LOG_LEVELS ?? 'error,warn',
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ?? join(__dirname, '..', 'node_modules', '.cache', 's2sp-test-compile-cache'),
};
preparePythonInterop().then(
  () => {
    // The usual report on stdout (as node --test picks it); at the end, on stderr, the ten slowest
    // files and then every failed or cancelled test with its cause, last so that a log's tail shows it.
    const reporters = [
      `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(__dirname, 'end-of-run-report.mjs')}`,
      '--test-reporter-destination=stderr',
    ];
    // A file's tests get 10 minutes: the packaging test installs apps from packed tarballs, which
    // takes minutes on a 2-core machine running another file beside it.
    const runner = ['--test', '--test-timeout=600000', `--test-concurrency=${concurrency}`];
    const result = spawnSync(process.execPath, [...runner, ...reporters, ...files], {
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
