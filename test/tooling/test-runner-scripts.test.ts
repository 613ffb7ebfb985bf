import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

const SCRIPTS = join(__dirname, '..', '..', '..', 'scripts');

type TestEvent = { type: string; data: { nesting: number; file?: string; details?: { duration_ms: number } } };

async function* events(list: TestEvent[]): AsyncGenerator<TestEvent> {
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
