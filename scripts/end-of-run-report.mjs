// The node:test reporter the runner ends with (scripts/run-tests.js): the slowest test files, then
// every failed or cancelled test. One reporter for both: each reporter Node is given listens to the
// run's event stream, and a third one trips Node's warning about too many listeners.
import failedTests from './failed-tests.mjs';
import slowestTestFiles from './slowest-test-files.mjs';

async function* replay(events) {
  yield* events;
}

export default async function* endOfRunReport(source) {
  const events = [];
  for await (const event of source) {
    if (event.type === 'test:pass' || event.type === 'test:fail') events.push(event);
  }
  for (const report of [slowestTestFiles, failedTests]) yield* report(replay(events));
}
