// A node:test reporter that prints, when the run ends, every test that failed or was cancelled,
// with where it is and why, so that the cause stays in sight at the end of a long log (CI shows
// only its tail). A test cancelled because its suite failed names that suite's failure instead.
import { relative } from 'node:path';

const STACK_LINES = 6;

const isNodeInternalFrame = (line) => /^\s*at .*\(node:/.test(line) || /^\s*at node:/.test(line);

/** The error's message, then the first lines of its stack and of its causes' (indented), Node's own frames left out. */
function describeError(error, indent) {
  const lines = [];
  for (let cause = error, depth = 0; cause && depth < 4; cause = cause.cause, depth++) {
    const text = typeof cause === 'object' ? (cause.stack ?? cause.message ?? String(cause)) : String(cause);
    lines.push(
      ...String(text)
        .split('\n')
        .filter((line) => !isNodeInternalFrame(line))
        .slice(0, STACK_LINES),
    );
  }
  return lines.map((line) => `${indent}${line.trimEnd()}`).join('\n');
}

function locationOf(data) {
  const file = data.file ? relative(process.cwd(), data.file) : '(unknown file)';
  return data.line ? `${file}:${data.line}` : file;
}

export default async function* failedTests(source) {
  const failures = [];
  for await (const event of source) {
    if (event.type === 'test:fail') failures.push(event.data);
  }
  if (failures.length === 0) return;
  const cancelledByParent = failures.filter((data) => data.details?.error?.failureType === 'cancelledByParent');
  const own = failures.filter((data) => !cancelledByParent.includes(data));
  let text = `\n${failures.length} tests or suites failed or were cancelled:\n`;
  for (const data of own) {
    const error = data.details?.error;
    const kind = error?.failureType ? ` [${error.failureType}]` : '';
    text += `  ${locationOf(data)}  ${JSON.stringify(data.name)}${kind}\n`;
    // node:test wraps the thrown error: the cause is what the test or hook threw.
    if (error) text += `${describeError(error.cause ?? error, '      ')}\n`;
  }
  if (cancelledByParent.length > 0) {
    text += `  cancelled because their suite or file failed first (${cancelledByParent.length}):\n`;
    for (const data of cancelledByParent) text += `    ${locationOf(data)}  ${JSON.stringify(data.name)}\n`;
  }
  yield text;
}
