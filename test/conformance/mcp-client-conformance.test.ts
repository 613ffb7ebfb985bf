// The official MCP conformance suite's client scenarios against the agents' MCP client (the code
// that reaches MCP servers in a task): each scenario that applies passes every check; the others
// carry the reason they do not apply (test/support/client-conformance.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { clientSectionOf, measureClient, renderClientSection } from '../support/client-conformance';
import { DOC_FILE } from '../support/conformance';

test("the agents' MCP client passes every client scenario that applies to it", { timeout: 600_000 }, async () => {
  const results = await measureClient();
  const ran = results.filter((result) => result.notApplicable === undefined);
  assert.deepEqual(
    ran.map((result) => `${result.specVersion} ${result.scenario}`),
    [
      '2025-11-25 initialize',
      '2025-11-25 tools_call',
      '2025-11-25 sse-retry',
      '2025-11-25 json-schema-2020-12-preservation',
      '2026-07-28 tools_call',
      '2026-07-28 request-metadata',
      '2026-07-28 sep-2322-client-request-state',
      '2026-07-28 http-standard-headers',
      '2026-07-28 http-custom-headers',
      '2026-07-28 http-invalid-tool-headers',
      '2026-07-28 json-schema-ref-no-deref',
      '2026-07-28 json-schema-2020-12-preservation',
    ],
    'the scenarios a client of its kind runs',
  );
  for (const result of ran) {
    assert.deepEqual(result.notPassing, [], `${result.specVersion} ${result.scenario}`);
    assert.ok(result.passed > 0, `${result.specVersion} ${result.scenario} passed checks`);
  }
  assert.equal(
    clientSectionOf(readFileSync(DOC_FILE, 'utf8')),
    renderClientSection(results),
    'docs/conformance.md shows what `npm run conformance -- --update-baseline` writes for this measurement',
  );
});
