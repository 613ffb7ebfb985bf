import assert from 'node:assert/strict';

/** "v n" entries of a draw_chart summary, sorted, for comparing with counts made here. */
export function chartedCounts(summary: string, rows: number, column: string): string[] {
  const match = new RegExp(`Charted ${rows} rows? by ${column} in (\\d+) bars?: ([^\\n]*)\\.`).exec(summary);
  assert.ok(match, `unexpected chart summary: ${summary}`);
  const entries = match[2].split(', ');
  assert.equal(entries.length, Number(match[1]));
  return entries.sort();
}

/** "v n" for each distinct value and how often it occurs, sorted. */
export function countsOf(values: readonly unknown[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} ${count}`).sort();
}
