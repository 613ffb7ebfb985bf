import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const SCRIPTS = join(__dirname, '..', '..', '..', 'scripts');

type TestEvent = { type: string; data: { nesting: number; file?: string; details?: { duration_ms: number } } };

async function* events<Event>(list: Event[]): AsyncGenerator<Event> {
  for (const event of list) yield await Promise.resolve(event);
}

test('the runner names the slowest test files, summing the top-level tests of each, slowest first, ten at most', async () => {
  const { default: slowestTestFiles } = (await import(pathToFileURL(join(SCRIPTS, 'slowest-test-files.mjs')).href)) as {
    default: (source: AsyncIterable<TestEvent>) => AsyncIterable<string>;
  };
  const run = (file: string, ms: number, nesting = 0, type = 'test:pass'): TestEvent => ({
    type,
    data: { nesting, file: join(process.cwd(), file), details: { duration_ms: ms } },
  });
  const list = [
    run('a.test.js', 1_000),
    run('b.test.js', 500),
    run('a.test.js', 2_000, 0, 'test:fail'),
    run('b.test.js', 9_000, 1), // a subtest: its time is already in its parent's
    ...Array.from({ length: 12 }, (_, index) => run(`many-${index}.test.js`, 10 + index)),
  ];
  let output = '';
  for await (const chunk of slowestTestFiles(events(list))) output += chunk;
  const lines = output.trim().split('\n');
  assert.equal(lines[0], 'The 10 slowest test files (seconds in their tests):');
  assert.deepEqual(lines.slice(1, 3), ['     3.0  a.test.js', '     0.5  b.test.js']);
  assert.equal(lines.length, 11);
});

type FailEvent = {
  type: string;
  data: { nesting: number; name: string; file: string; line: number; details: { error?: unknown } };
};

/** A failure as node:test reports it: an ERR_TEST_FAILURE of some failure type wrapping what was thrown. */
function testFailure(failureType: string, cause: unknown): Error {
  return Object.assign(new Error('wrapped by node:test', { cause }), { failureType, code: 'ERR_TEST_FAILURE' });
}

test('the runner ends with every failed or cancelled test: file, line, name and cause, cancelled-by-parent grouped', async () => {
  const { default: failedTests } = (await import(pathToFileURL(join(SCRIPTS, 'failed-tests.mjs')).href)) as {
    default: (source: AsyncIterable<FailEvent>) => AsyncIterable<string>;
  };
  const event = (type: string, name: string, line: number, error?: Error): FailEvent => ({
    type,
    data: { nesting: 0, name, file: join(process.cwd(), 'e2e.test.js'), line, details: { error } },
  });
  const hookError = new Error('the stack did not start', { cause: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
  const list = [
    event('test:pass', 'a passing test', 1),
    event('test:fail', 'sampling suite', 10, testFailure('hookFailed', hookError)),
    event('test:fail', 'first of the suite', 12, testFailure('cancelledByParent', new Error('parent failed'))),
    event('test:fail', 'second of the suite', 14, testFailure('cancelledByParent', new Error('parent failed'))),
    event('test:fail', 'slow one', 30, testFailure('testTimeoutFailure', 'test timed out after 50ms')),
  ];
  let output = '';
  for await (const chunk of failedTests(events(list))) output += chunk;
  assert.match(output, /4 tests or suites failed or were cancelled/);
  assert.match(output, /e2e\.test\.js:10 {2}"sampling suite" \[hookFailed\]\n {6}Error: the stack did not start\n/);
  assert.match(output, /Error: connect ECONNREFUSED 127\.0\.0\.1:5432/, "the hook error's cause");
  assert.ok(!/node:internal/.test(output), "Node's own stack frames are left out");
  assert.match(output, /"slow one" \[testTimeoutFailure\]\n {6}test timed out after 50ms/);
  assert.match(
    output,
    /cancelled because their suite or file failed first \(2\):\n {4}e2e\.test\.js:12 {2}"first of the suite"/,
  );
  assert.ok(!output.includes('a passing test'));

  let quiet = '';
  for await (const chunk of failedTests(events([event('test:pass', 'fine', 1)]))) quiet += chunk;
  assert.equal(quiet, '', 'nothing when every test passed');

  const { default: endOfRunReport } = (await import(pathToFileURL(join(SCRIPTS, 'end-of-run-report.mjs')).href)) as {
    default: (source: AsyncIterable<FailEvent>) => AsyncIterable<string>;
  };
  let end = '';
  for await (const chunk of endOfRunReport(events(list))) end += chunk;
  const slowestAt = end.indexOf('slowest test files');
  assert.ok(
    slowestAt >= 0 && slowestAt < end.indexOf('failed or were cancelled'),
    'the slowest files, then the failures',
  );
});

test('test:changed selects the test files that import a changed file through any chain, and those naming a changed document', () => {
  const selection = (files: string): string[] =>
    execFileSync(process.execPath, [join(SCRIPTS, 'test-changed.js'), '--files', files, '--list'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const grpc = selection('libs/grpc/src/bearer-metadata.ts');
  assert.ok(grpc.includes('test/auth/grpc-guard.test.js'), 'imports it directly');
  assert.ok(grpc.includes('test/e2e/platform-path.test.js'), 'reaches it through the agents');
  assert.ok(!grpc.includes('test/platform/uuid.test.js'), 'does not reach it');
  assert.deepEqual(selection('test/platform/uuid.test.ts'), ['test/platform/uuid.test.js']);
  assert.ok(selection('prisma/schema.prisma').length > 0, 'tests that read the schema');
});

test('the runner refuses a concurrency that is not a positive integer, naming the variable', () => {
  for (const value of ['0', 'two', '1.5']) {
    const run = spawnSync(process.execPath, [join(SCRIPTS, 'run-tests.js')], {
      env: { ...process.env, S2SP_TEST_CONCURRENCY: value },
      encoding: 'utf8',
    });
    assert.equal(run.status, 1, value);
    assert.match(run.stderr, new RegExp(`S2SP_TEST_CONCURRENCY must be a positive integer, got ${value}`));
  }
});
