// A deterministic wide-enough, long table for data-plane scale tests: row i has
// four short columns, so a million rows stay within a heap-capped process.
import type { Row } from '../../libs/s2sp/src/protocol/row';

export const BIG_TABLE_COLUMNS = ['event', 'code', 'magnitude', 'active'] as const;

export function bigTableRow(i: number): Row {
  return { event: `event-${i % 97}`, code: `AKZ${i}`, magnitude: (i % 1000) / 10, active: i % 3 === 0 };
}

/** A checksum over the rows a consumer got, comparable with {@link expectedChecksum}. */
export function checksumOf(rows: readonly Row[]): number {
  let sum = 0;
  for (const row of rows) {
    const id = row._row_id as number;
    const expected = bigTableRow(id);
    if (
      row.code !== expected.code ||
      row.event !== expected.event ||
      row.magnitude !== expected.magnitude ||
      row.active !== expected.active
    ) {
      throw new Error(`row ${id} differs from what was published`);
    }
    sum = (sum + id) % 1_000_000_007;
  }
  return sum;
}

export function expectedChecksum(rowCount: number): number {
  let sum = 0;
  for (let id = 0; id < rowCount; id++) sum = (sum + id) % 1_000_000_007;
  return sum;
}
