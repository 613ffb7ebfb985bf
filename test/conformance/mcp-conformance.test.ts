// The official MCP conformance suite against the weather and stats servers and
// the conformance fixture server (apps/conformance-server), held to the committed baseline of expected failures (baseline.json): a new
// failure fails this test, and so does an expected failure that now passes.
// After a fix: `npm run conformance -- --update-baseline`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  compareWithBaseline,
  DOC_FILE,
  measure,
  readBaseline,
  rebaseline,
  renderDoc,
  startBearerForwarder,
  startTargets,
  TODO_REASON,
  type Baseline,
  type Measurement,
} from '../support/conformance';
import { clientSectionOf } from '../support/client-conformance';

const REASON = 'the servers have no prompts';

function baselineWith(entries: Baseline[string]): Baseline {
  return { 'weather-server 2025-11-25': entries };
}

function measured(results: Measurement[string]): Measurement {
  return { 'weather-server 2025-11-25': results };
}

test('a measurement equal to the baseline has no differences', () => {
  const baseline = baselineWith({
    'prompts-list': { outcome: 'not-applicable', checks: { 'prompts-list': 'FAILURE' }, reason: REASON },
  });
  assert.deepEqual(
    compareWithBaseline(measured({ 'prompts-list': { 'prompts-list': 'FAILURE' }, ping: {} }), baseline),
    [],
  );
});

test('a new failure, a new warning and an unexpected pass are all differences', () => {
  const baseline = baselineWith({
    'prompts-list': { outcome: 'not-applicable', checks: { 'prompts-list': 'FAILURE' }, reason: REASON },
  });
  const differences = compareWithBaseline(
    measured({
      'prompts-list': {},
      ping: { ping: 'FAILURE' },
      'server-sse-polling': { 'server-sse-retry-field': 'WARNING' },
    }),
    baseline,
  );
  assert.deepEqual(differences, [
    'weather-server 2025-11-25 ping: NEW FAIL (ping=FAILURE)',
    'weather-server 2025-11-25 prompts-list: UNEXPECTED PASS (baseline expects prompts-list=FAILURE); remove it from the baseline',
    'weather-server 2025-11-25 server-sse-polling: NEW WARNING (server-sse-retry-field=WARNING)',
  ]);
});

test('an expected failure whose failing checks change is a difference', () => {
  const baseline = baselineWith({
    caching: { outcome: 'fail', checks: { 'prompts-hints': 'FAILURE' }, reason: 'being fixed' },
  });
  assert.deepEqual(
    compareWithBaseline(measured({ caching: { 'prompts-hints': 'FAILURE', 'tools-hints': 'FAILURE' } }), baseline),
    [
      'weather-server 2025-11-25 caching: CHANGED: expected prompts-hints=FAILURE, got prompts-hints=FAILURE, tools-hints=FAILURE',
    ],
  );
  assert.deepEqual(compareWithBaseline(measured({ caching: { 'prompts-hints': 'WARNING' } }), baseline), [
    'weather-server 2025-11-25 caching: CHANGED: expected prompts-hints=FAILURE, got prompts-hints=WARNING',
  ]);
});

test('a baseline entry without a reason, or for a scenario the suite no longer lists, is a difference', () => {
  const baseline = baselineWith({
    'prompts-list': { outcome: 'fail', checks: { 'prompts-list': 'FAILURE' }, reason: TODO_REASON },
    'retired-scenario': { outcome: 'fail', checks: { x: 'FAILURE' }, reason: 'gone' },
  });
  assert.deepEqual(compareWithBaseline(measured({ 'prompts-list': { 'prompts-list': 'FAILURE' } }), baseline), [
    'weather-server 2025-11-25 prompts-list: the baseline entry has no reason yet',
    'weather-server 2025-11-25 retired-scenario: in the baseline, but the suite no longer lists this scenario',
  ]);
});

test('re-baselining keeps reasons and not-applicable verdicts, drops what passes, and leaves TODO for new entries', () => {
  const previous = baselineWith({
    'prompts-list': { outcome: 'not-applicable', checks: { 'prompts-list': 'FAILURE' }, reason: REASON },
    'dns-rebinding-protection': { outcome: 'fail', checks: { rebinding: 'FAILURE' }, reason: 'being fixed' },
  });
  const next = rebaseline(
    measured({
      'prompts-list': { 'prompts-list': 'FAILURE' },
      'dns-rebinding-protection': {},
      'server-sse-polling': { retry: 'WARNING' },
    }),
    previous,
  );
  assert.deepEqual(next, {
    'weather-server 2025-11-25': {
      'prompts-list': { outcome: 'not-applicable', checks: { 'prompts-list': 'FAILURE' }, reason: REASON },
      'server-sse-polling': { outcome: 'warning', checks: { retry: 'WARNING' }, reason: TODO_REASON },
    },
  });
});

test('the documentation counts each suite from the measurement and the baseline', () => {
  const baseline = baselineWith({
    'prompts-list': { outcome: 'not-applicable', checks: { 'prompts-list': 'FAILURE' }, reason: REASON },
    'dns-rebinding-protection': { outcome: 'fail', checks: { rebinding: 'FAILURE' }, reason: 'being fixed' },
    'server-sse-polling': { outcome: 'warning', checks: { retry: 'WARNING' }, reason: 'being fixed' },
  });
  const doc = renderDoc(
    measured({
      ping: {},
      'tools-list': {},
      'prompts-list': { 'prompts-list': 'FAILURE' },
      'dns-rebinding-protection': { rebinding: 'FAILURE' },
      'server-sse-polling': { retry: 'WARNING' },
    }),
    baseline,
  );
  assert.match(doc, /^\| weather-server \| 2025-11-25 \| 5 \| 2 \| 1 \| 1 \| 1 \|$/m);
  assert.match(
    doc,
    /^\| weather-server \| 2025-11-25 \| prompts-list \| not-applicable \| prompts-list=FAILURE \| the servers have no prompts \|$/m,
  );
});

test('the forwarder adds a token per MCP session and keeps Host, Origin, path and body', async (t) => {
  const seen: Array<{ headers: IncomingHttpHeaders; url: string | undefined; body: string }> = [];
  const upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ headers: req.headers, url: req.url, body });
      res.writeHead(200, { 'mcp-session-id': `session-${seen.length}` }).end('ok');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.after(() => upstream.close());
  const forwarder = await startBearerForwarder(
    `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    async (caller) => `Bearer caller-${caller}`,
  );
  t.after(() => forwarder.close());

  const post = (headers: Record<string, string>) =>
    fetch(`${forwarder.url}/mcp?x=1`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  assert.equal((await post({ origin: 'http://evil.example' })).status, 200);
  assert.equal((await post({ 'mcp-session-id': 'session-1' })).status, 200);
  assert.equal((await post({})).status, 200);
  // fetch does not let a caller set Host, so the foreign one goes over a plain request.
  await new Promise<void>((resolve, reject) => {
    const port = new URL(forwarder.url).port;
    request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'evil.example:80' } }, (res) => {
      res.resume();
      res.on('end', resolve);
    })
      .on('error', reject)
      .end();
  });

  assert.equal(seen[0].headers.origin, 'http://evil.example');
  assert.equal(seen[0].url, '/mcp?x=1');
  assert.equal(seen[0].body, '{"a":1}');
  assert.equal(seen[0].headers.authorization, 'Bearer caller-1');
  assert.equal(seen[1].headers.authorization, 'Bearer caller-1', 'a session keeps the caller that opened it');
  assert.equal(seen[2].headers.authorization, 'Bearer caller-2', 'a new session gets a caller of its own');
  assert.equal(seen[3].headers.host, 'evil.example:80');
});

test(
  'the MCP conformance suite measures the weather, stats and fixture servers exactly as the baseline says',
  { timeout: 600_000 },
  async () => {
    const stack = await startTargets();
    let measurement: Measurement;
    try {
      measurement = await measure(stack.targets);
    } finally {
      await stack.close();
    }
    const baseline = readBaseline();
    const differences = compareWithBaseline(measurement, baseline);
    assert.ok(
      differences.length === 0,
      `the conformance suite disagrees with test/conformance/baseline.json:\n  ${differences.join('\n  ')}\n` +
        'Fix the regression, or after a deliberate change run `npm run conformance -- --update-baseline` and write the reasons.',
    );
    assert.equal(
      readFileSync(DOC_FILE, 'utf8'),
      renderDoc(measurement, baseline, clientSectionOf(readFileSync(DOC_FILE, 'utf8'))),
      'docs/conformance.md is not what `npm run conformance -- --update-baseline` writes for this measurement',
    );
  },
);
