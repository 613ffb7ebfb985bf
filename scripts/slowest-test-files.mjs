// A node:test reporter that prints, when the run ends, the ten test files that took longest
// (the time of their top-level tests), so that a slow file shows up in every run.
import { relative } from 'node:path';

const SHOWN = 10;

export default async function* slowestTestFiles(source) {
  const seconds = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const took = (event.data.details?.duration_ms ?? 0) / 1000;
      seconds.set(event.data.file, (seconds.get(event.data.file) ?? 0) + took);
    }
  }
  const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  if (slowest.length === 0) return;
  yield `\nThe ${slowest.length} slowest test files (seconds in their tests):\n`;
  for (const [file, took] of slowest) yield `${took.toFixed(1).padStart(8)}  ${relative(process.cwd(), file)}\n`;
}
