// Measures the example servers with the official MCP conformance suite and
// prints how the result differs from test/conformance/baseline.json (exit 1
// when it does). With --update-baseline it rewrites the baseline (keeping the
// reasons already written, TODO for new entries) and docs/conformance.md (with the
// client scenarios' section, measured against the agents' MCP client).
// Run through `npm run conformance [-- --update-baseline]`, which builds first.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { measureClient, renderClientSection } from '../test/support/client-conformance';
import {
  BASELINE_FILE,
  compareWithBaseline,
  DOC_FILE,
  measure,
  readBaseline,
  rebaseline,
  renderDoc,
  startTargets,
  TODO_REASON,
  writeBaseline,
} from '../test/support/conformance';

async function main(): Promise<void> {
  const update = process.argv.includes('--update-baseline');
  // Servers log only warnings and errors, as under `npm test`.
  process.env['LOG_LEVELS'] ??= 'error,warn';
  const started = Date.now();
  const stack = await startTargets();
  const serversUp = Date.now();
  let measurement;
  try {
    measurement = await measure(stack.targets);
  } finally {
    await stack.close();
  }
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  console.log(`servers started in ${seconds(serversUp - started)}, suite ran in ${seconds(Date.now() - serversUp)}`);
  const previous = readBaseline();
  const differences = compareWithBaseline(measurement, previous);
  for (const line of differences) console.log(`  ${line}`);
  if (!update) {
    console.log(
      differences.length === 0
        ? 'conformance: matches the baseline'
        : `conformance: ${differences.length} difference(s) from the baseline`,
    );
    process.exitCode = differences.length === 0 ? 0 : 1;
    return;
  }
  const next = rebaseline(measurement, previous);
  writeBaseline(next);
  writeFileSync(DOC_FILE, renderDoc(measurement, next, renderClientSection(await measureClient())));
  const todo = Object.entries(next).flatMap(([suite, entries]) =>
    Object.entries(entries)
      .filter(([, entry]) => entry.reason === TODO_REASON)
      .map(([scenario]) => `${suite} ${scenario}`),
  );
  console.log(`conformance: wrote ${relative(process.cwd(), BASELINE_FILE)} and ${relative(process.cwd(), DOC_FILE)}`);
  if (todo.length > 0) {
    console.log(
      `${todo.length} new entr${todo.length === 1 ? 'y needs' : 'ies need'} a reason (the test fails until then):`,
    );
    for (const name of todo) console.log(`  ${name}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
