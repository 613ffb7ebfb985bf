// The official MCP conformance suite's client scenarios against the agents' MCP client
// (test/support/conformance-client.ts): every scenario the suite lists for a spec version
// either runs and passes, or is in CLIENT_NOT_APPLICABLE with the reason it does not apply.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_22, NOT_PASSING, runSuite, SPEC_VERSIONS, type SpecVersion } from './conformance';
import { tempDir } from './temp-dir';

const CLIENT_PROGRAM = join(__dirname, 'conformance-client.js');
const SCENARIO_TIMEOUT_MS = 30_000;

const NO_OAUTH =
  'the agents authenticate to MCP servers with platform-minted bearer tokens (docs/auth.md); their client runs no OAuth flow';

/** Scenarios that do not apply to the agents' client, with the reason. */
export function clientNotApplicable(scenario: string): string | undefined {
  if (scenario.startsWith('auth/')) return NO_OAUTH;
  if (scenario === 'elicitation-sep1034-client-defaults')
    return 'the agents declare no elicitation capability: no user is present to answer a form during a task (the conformance program answers yes/no forms only so the suite can check the input-required rounds around them)';
  return undefined;
}

/** What a reader of the table needs to know about a scenario that runs. */
const CLIENT_NOTES: Readonly<Record<string, string>> = {
  'sep-2322-client-request-state':
    "every check passes; the suite's test_mrtr_no_result_type reply omits resultType on the 2026-07-28 wire, where the released specification requires it (modelcontextprotocol/conformance#475), so the client refuses that reply and the program expects the refusal",
  'http-standard-headers':
    'the initialize and notifications/initialized checks are skipped by the suite: a 2026-07-28 client sends neither',
};

export interface ClientScenarioResult {
  scenario: string;
  specVersion: SpecVersion;
  /** Checks that passed (SUCCESS). */
  passed: number;
  /** Checks that did not pass: `id=STATUS`. */
  notPassing: string[];
  /** Set when the scenario does not apply; it was not run. */
  notApplicable?: string;
}

/** The client scenarios the suite lists for a spec version. */
export async function listClientScenarios(specVersion: SpecVersion): Promise<string[]> {
  const { code, stdout, stderr } = await runSuite(['list', '--client', '--spec-version', specVersion]);
  if (code !== 0) throw new Error(`conformance list failed (${code}): ${stderr}`);
  const names = [...stdout.matchAll(/^\s+- ([\w./-]+)/gm)].map((match) => match[1]);
  if (names.length === 0) throw new Error(`conformance list printed no client scenarios:\n${stdout}`);
  return names;
}

async function runClientScenario(scenario: string, specVersion: SpecVersion): Promise<ClientScenarioResult> {
  const output = tempDir('s2sp-client-conformance-');
  try {
    const args = ['client', '--command', `${NODE_22} ${CLIENT_PROGRAM}`, '--scenario', scenario];
    const run = await runSuite([
      ...args,
      '--spec-version',
      specVersion,
      '--timeout',
      String(SCENARIO_TIMEOUT_MS),
      '-o',
      output.path,
    ]);
    const [dir] = readdirSync(output.path);
    const checksFile = dir === undefined ? '' : join(output.path, dir, 'checks.json');
    if (!existsSync(checksFile))
      throw new Error(`${scenario} ${specVersion}: no checks:\n${run.stdout}\n${run.stderr}`);
    const checks = JSON.parse(readFileSync(checksFile, 'utf8')) as Array<{ id: string; status: string }>;
    const notPassing = checks.filter((check) => NOT_PASSING.has(check.status)).map((c) => `${c.id}=${c.status}`);
    const passed = checks.filter((check) => check.status === 'SUCCESS').length;
    if (run.code !== 0 && notPassing.length === 0) notPassing.push(`suite exit code ${run.code}`);
    return { scenario, specVersion, passed, notPassing };
  } finally {
    output.remove();
  }
}

/** Every client scenario of every spec version: run, or not applicable with its reason. */
export async function measureClient(): Promise<ClientScenarioResult[]> {
  const results: ClientScenarioResult[] = [];
  for (const specVersion of SPEC_VERSIONS) {
    for (const scenario of await listClientScenarios(specVersion)) {
      const reason = clientNotApplicable(scenario);
      results.push(
        reason === undefined
          ? await runClientScenario(scenario, specVersion)
          : { scenario, specVersion, passed: 0, notPassing: [], notApplicable: reason },
      );
    }
  }
  return results;
}

const SECTION_START = '<!-- client-conformance:start -->';
const SECTION_END = '<!-- client-conformance:end -->';

/** The client side's part of docs/conformance.md, markers included. */
export function renderClientSection(results: readonly ClientScenarioResult[]): string {
  const rows = results.map((result) => {
    const outcome = result.notApplicable
      ? 'not-applicable'
      : result.notPassing.length === 0
        ? 'pass'
        : `fail: ${result.notPassing.join(', ')}`;
    const note =
      result.notApplicable ?? (result.specVersion === '2026-07-28' ? CLIENT_NOTES[result.scenario] : undefined);
    const reason = (note ?? '').replace(/\|/g, '\\|');
    return `| ${result.specVersion} | ${result.scenario} | ${outcome} | ${result.passed} | ${reason} |`;
  });
  const ran = results.filter((result) => !result.notApplicable);
  return [
    SECTION_START,
    '## Client side: the agents’ MCP client',
    '',
    'The same suite’s client scenarios run in `npm test` (`test/conformance/mcp-client-conformance.test.ts`)',
    'against the agents’ MCP client, `McpServerConnection` (the code that reaches MCP servers in a task), driven',
    'by `test/support/conformance-client.ts` the way the suite’s client mode expects. The client negotiates',
    'the protocol as the agents do by default (`server/discover`, then 2026-07-28 or `initialize`). A scenario',
    `that applies must pass every check; ${ran.length} of ${results.length} apply:`,
    '',
    '| Spec version | Scenario | Outcome | Checks passed | Notes (why a scenario does not apply) |',
    '| --- | --- | --- | ---: | --- |',
    ...rows,
    SECTION_END,
  ].join('\n');
}

/** The client section of a docs/conformance.md text ('' when it has none). */
export function clientSectionOf(doc: string): string {
  const start = doc.indexOf(SECTION_START);
  const end = doc.indexOf(SECTION_END);
  return start === -1 || end < start ? '' : doc.slice(start, end + SECTION_END.length);
}
