import { benchColumnNames, generateBenchRows, type BenchRow } from './bench-rows';

/** The one table the bench server currently serves; generating a new size drops the previous one. */
export class BenchTableHolder {
  private current: { rowCount: number; columnCount: number; rows: BenchRow[] } | undefined;

  rows(rowCount: number, columnCount: number): BenchRow[] {
    if (this.current?.rowCount !== rowCount || this.current.columnCount !== columnCount) {
      this.current = undefined;
      this.current = { rowCount, columnCount, rows: generateBenchRows(rowCount, columnCount) };
    }
    return this.current.rows;
  }

  /** The abstract (control-plane) columns of the bench: the first three. */
  abstractDomains(columnCount: number): string[] {
    return benchColumnNames(columnCount).slice(0, 3);
  }
}
