// The README's and docs' examples, run as written against a stack started the
// way the README starts it: an example that drifts from the code fails here.
// Blocks are taken from the Markdown with marked's lexer; which run how, and how
// a block that does not run is marked, is in test/support/docs-examples/markdown-examples.ts.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { statedAnswers, unmetAnswers } from '../support/docs-examples/expected-output';
import { describeExample, markdownExamples, type MarkdownExample } from '../support/docs-examples/markdown-examples';
import { ShellSession } from '../support/docs-examples/shell-session';
import {
  isStandaloneProgram,
  LIBRARY_SNIPPET_PRELUDE,
  runModule,
  typeCheck,
  type ExampleSource,
} from '../support/docs-examples/typescript-examples';
import { findRepoRoot } from '../support/repo-root';
import { startStack, STACK_READY_WITHIN_MS, type RunningStack } from '../support/start-all';
import { tempDir } from '../support/stack';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';

const REPO_ROOT = findRepoRoot(__dirname);
const MARKDOWN_FILES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];
const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell']);
const EXAMPLE_TIMEOUT_MS = 120_000;

/** The ports the docs name, by app; the stack under test listens on free ones. */
const DOCUMENTED_PORTS = { gateway: 3000, weather: 3101, stats: 3102, agents: 50051 } as const;

const examplesByFile = new Map(
  MARKDOWN_FILES.map((file) => [file, markdownExamples(join(REPO_ROOT, file), REPO_ROOT)]),
);
const allExamples = [...examplesByFile.values()].flat();

describe('the documentation runs: README.md and docs/*.md, every fenced block', () => {
  let stack: RunningStack;
  let stackDir: ReturnType<typeof tempDir>;
  let scratch: string;
  let toStackPorts: (text: string) => string;

  before(async () => {
    assertStartedAsDocumented();
    stackDir = tempDir('s2sp-docs-examples-');
    chmodSync(stackDir.path, 0o755); // .data/postgres must be reachable by the server's OS user when tests run as root
    // Inside the repository, so that the examples' imports resolve from its node_modules.
    scratch = mkdtempSync(join(REPO_ROOT, 'dist', 'docs-examples-'));
    stack = await startStack({
      cwd: stackDir.path,
      timeoutMs: STACK_READY_WITHIN_MS,
      env: { LOG_LEVELS: 'error,warn,log' },
    });
    const actual: Record<number, string> = {
      [DOCUMENTED_PORTS.gateway]: new URL(stack.gatewayUrl).port,
      [DOCUMENTED_PORTS.weather]: new URL(stack.weatherUrl).port,
      [DOCUMENTED_PORTS.stats]: new URL(stack.statsUrl).port,
      [DOCUMENTED_PORTS.agents]: stack.agentsAddress.split(':')[1],
    };
    toStackPorts = (text) =>
      text.replace(
        /\b(localhost|127\.0\.0\.1):(3000|3101|3102|50051)\b/g,
        (_, host: string, port: string) => `${host}:${actual[Number(port)]}`,
      );
  });

  after(async () => {
    if (stack) assert.equal(await stack.stop(), 0, 'the stack stops cleanly');
    stackDir?.remove();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('every block runs by its language or is marked; markers name real tests', () => {
    const unrunnable = allExamples.filter(
      (example) => !example.marker && !SHELL_LANGUAGES.has(example.language) && example.language !== 'ts',
    );
    assert.deepEqual(
      unrunnable.map(describeExample),
      [],
      'mark a block that is not meant to run: <!-- example: not-run <reason> --> (or run-by <test file>) on the line above its fence',
    );
    for (const example of allExamples) {
      if (example.marker?.kind !== 'run-by') continue;
      const testFile = join(REPO_ROOT, example.marker.testFile);
      assert.ok(existsSync(testFile), `${describeExample(example)}: ${example.marker.testFile} does not exist`);
      assert.ok(
        readFileSync(testFile, 'utf8').includes(basename(example.file)),
        `${example.marker.testFile} reads ${example.file}`,
      );
    }
    assert.ok(allExamples.filter((example) => !example.marker).length >= 8, 'the examples are found (README and docs)');
  });

  test('the TypeScript examples type-check: library snippets together, with their imports; clients on their own', () => {
    const sources: ExampleSource[] = [];
    for (const [file, examples] of examplesByFile) {
      const typescript = examples.filter((example) => !example.marker && example.language === 'ts');
      const snippets = typescript.filter((example) => !isStandaloneProgram(example.code));
      if (snippets.length > 0)
        sources.push({
          name: `${slug(file)}-snippets.ts`,
          text: LIBRARY_SNIPPET_PRELUDE + snippets.map((example) => example.code).join('\n\n'),
        });
      for (const program of typescript.filter((example) => isStandaloneProgram(example.code)))
        sources.push(programSource(program));
    }
    assert.ok(sources.length >= 2, 'the README has library snippets and a client');
    assert.deepEqual(typeCheck(sources, scratch, REPO_ROOT), []);
  });

  for (const file of MARKDOWN_FILES) {
    test(`${file}: its shell and client examples run against the stack and print what they state`, async () => {
      const session = new ShellSession({
        cwd: stackDir.path,
        repoRoot: REPO_ROOT,
        scratchDir: scratch,
        timeoutMs: EXAMPLE_TIMEOUT_MS,
      });
      try {
        for (const example of examplesByFile.get(file)!) {
          if (example.marker) continue;
          if (SHELL_LANGUAGES.has(example.language)) runShell(session, example);
          else if (example.language === 'ts' && isStandaloneProgram(example.code)) runClient(session, example);
        }
      } finally {
        session.close();
      }
    });
  }

  test('a request without traceparent runs in a trace: error.data.trace_id and the log lines of its task name it', async () => {
    const refused = await rpc('not-a-token', 'tools.list', {});
    assert.match(String((refused.error?.data as { trace_id?: unknown } | undefined)?.trace_id), /^[0-9a-f]{32}$/);

    const token = await stackToken({ scopes: ['tasks:submit', 'tasks:read', 'weather:read'] });
    const submitted = await rpc(token, 'agent.submitTask', {
      objective: 'trace',
      plan: [
        {
          step_id: 'alerts',
          resource_call: {
            server: 'weather',
            tool: 'get_alerts',
            arguments: { area: 'CA' },
            abstract_domains: ['event'],
          },
        },
      ],
    });
    const { task_id: taskId, trace_id: traceId } = submitted.result as { task_id: string; trace_id?: string };
    assert.match(String(traceId), /^[0-9a-f]{32}$/, JSON.stringify(submitted));
    const linesOfTrace = () =>
      stack
        .output()
        .split('\n')
        .filter((line) => line.includes(`"trace_id":"${traceId}"`));
    for (
      let waited = 0;
      !linesOfTrace().some((line) => line.includes(taskId) || /SUCCEEDED|FAILED/.test(line)) && waited < 30_000;
      waited += 200
    ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const agentsLines = linesOfTrace().filter((line) => line.startsWith('[agents]'));
    assert.ok(
      agentsLines.length > 0,
      `the agents logged the task under trace ${traceId}:\n${stack.output().split('\n').slice(-20).join('\n')}`,
    );
    for (const line of agentsLines) assert.match(line, /"span_id":"[0-9a-f]{16}"/);
  });

  test('a deadline a few hundred ms ahead is answered as a deadline (-32000 with data.hop) or in time, never as a failed login', async (t) => {
    const token = await stackToken({ scopes: ['tools:call', 'tasks:submit', 'weather:read'] });
    const plan = [
      {
        step_id: 'alerts',
        resource_call: {
          server: 'weather',
          tool: 'get_alerts',
          arguments: { area: 'CA' },
          abstract_domains: ['event'],
        },
      },
    ];
    const answers: Array<{ error?: { code: number; data?: Record<string, unknown> } }> = [];
    const getAlertsWithin = (budgetMs: number) =>
      rpc(
        token,
        'tools.call',
        { name: 'get_alerts', arguments: { area: 'CA' } },
        { 'x-deadline-ms': String(Date.now() + budgetMs) },
      );
    // One deadline no call can meet, so that the answers include refusals whatever the machine's speed.
    answers.push(await getAlertsWithin(1));
    for (let attempt = 0; attempt < 8; attempt++) {
      answers.push(await getAlertsWithin(300));
      answers.push(
        await rpc(token, 'agent.submitTask', { objective: 'deadline', deadline_ms: Date.now() + 300, plan }),
      );
    }
    const summary = JSON.stringify(
      answers.map((answer) =>
        answer.error ? [answer.error.code, answer.error.data?.hop ?? answer.error.data?.circuit] : 'result',
      ),
    );
    t.diagnostic(`answers: ${summary}`);
    // Timeouts count against the gateway's circuit for the agents: once it opens, calls fail fast with -32001 (documented).
    const refusals = answers.filter(
      (answer) => answer.error && !(answer.error.code === -32001 && answer.error.data?.circuit === 'open'),
    );
    assert.ok(refusals.length > 0, `no deadline was refused: ${summary}`);
    for (const { error } of refusals) {
      assert.equal(error!.code, -32000, summary);
      assert.equal(typeof error!.data?.hop, 'string', summary);
    }
  });

  function runShell(session: ShellSession, example: MarkdownExample): void {
    const code = toStackPorts(example.code);
    const result = session.run(code);
    const where = `${describeExample(example)}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
    assert.equal(result.status, 0, `exited ${result.status}: ${where}`);
    assert.deepEqual(
      unmetAnswers(statedAnswers(code, '#'), result.stdout),
      [],
      `the stated answers were not printed: ${where}`,
    );
  }

  function runClient(session: ShellSession, example: MarkdownExample): void {
    const env: NodeJS.ProcessEnv = {};
    for (const assignment of shellAssignmentsInComments(example.code)) {
      const name = assignment.slice(0, assignment.indexOf('='));
      env[name] = session.assign(assignment);
      assert.ok(env[name], `${describeExample(example)}: ${assignment} set nothing`);
    }
    const source = programSource(example);
    const code = toStackPorts(source.text);
    const result = runModule({ ...source, text: code }, scratch, { env, timeoutMs: EXAMPLE_TIMEOUT_MS });
    const where = `${describeExample(example)}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
    assert.equal(result.status, 0, `exited ${result.status}: ${where}`);
    assert.deepEqual(
      unmetAnswers(statedAnswers(code, '//'), result.stdout),
      [],
      `the stated answers were not printed: ${where}`,
    );
  }

  async function stackToken(request: { scopes: string[] }): Promise<string> {
    // The dev key the stack and `npm run token` use: the one in the stack's directory.
    const minter = new TokenMinter({
      issuer: 's2sp-dev',
      signingKey: new DevKeyStore({ dataDir: join(stackDir.path, '.data', 'auth') }),
    });
    return minter.mint({ subject: 'docs-reader', audience: 'gateway', scopes: request.scopes, ttlSeconds: 600 });
  }

  async function rpc(
    token: string,
    method: string,
    params: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } }> {
    const response = await fetch(`${stack.gatewayUrl}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as {
      result?: unknown;
      error?: { code: number; message: string; data?: Record<string, unknown> };
    };
  }
});

/** The README starts the stack with `npm start`; the test starts it with the script `npm start` runs after its build. */
function assertStartedAsDocumented(): void {
  const starts = allExamples.filter((example) => example.marker?.kind === 'starts-the-stack');
  assert.equal(starts.length, 1, 'one block says how the stack starts');
  assert.match(starts[0].code, /(^|\s|&&\s*)npm start\b/m);
  const scripts = (
    JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  assert.equal(
    scripts.start,
    'npm run build && node dist/scripts/start-all.js',
    'the stack under test is what npm start runs',
  );
}

/** `// NAME=$(…)` lines: the shell commands a client example tells the reader to run first. */
function shellAssignmentsInComments(code: string): string[] {
  return code
    .split('\n')
    .map((line) => /^\s*\/\/\s*([A-Z_][A-Z0-9_]*=\$\(.*\))\s*$/.exec(line)?.[1])
    .filter((assignment): assignment is string => assignment !== undefined);
}

function programSource(example: MarkdownExample): ExampleSource {
  return { name: `${slug(example.file)}-block-${example.ordinal}.mts`, text: example.code };
}

function slug(file: string): string {
  return file.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
}
