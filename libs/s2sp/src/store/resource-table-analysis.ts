import { Logger } from '@nestjs/common';
import type { SqlQuery } from '@s2sp/platform';

/** The rows filled by this process after which it analyzes `s2sp_resource`, each count once. */
const ANALYZE_AFTER_ROWS = [2_000, 20_000];

/**
 * Refreshes PostgreSQL's statistics of `s2sp_resource` while this process fills it fast.
 *
 * PostgreSQL plans a prepared statement once per connection (a generic plan, after its first
 * executions) for the table as it is at that moment, and keeps that plan until the table's
 * statistics change. Prepared while the table was nearly empty (a new database, or one the
 * sweeper emptied), the fill of reserved rows (./reserved-row-fills.ts) keeps reading the whole
 * table once per statement as the table grows, the cheapest plan for a few pages, until
 * autovacuum first analyzes the table: a minute or more later, and never on a server without it.
 * New statistics make every connection plan its statements again, this time with the primary
 * key. Analyzing takes no lock that writes or reads wait for; a role that does not own the table
 * only gets PostgreSQL's warning, and autovacuum then does it as before.
 */
export class ResourceTableAnalysis {
  private readonly logger = new Logger('S2spResourceStore');
  private rowsFilled = 0;
  private nextThreshold = 0;

  constructor(
    private readonly sql: SqlQuery,
    private readonly thresholds: readonly number[] = ANALYZE_AFTER_ROWS,
  ) {}

  /** Counts rows this process filled; analyzes the table when a threshold is passed (the promise: that analysis, never rejected). */
  filled(rows: number): Promise<void> {
    this.rowsFilled += rows;
    const passedBefore = this.nextThreshold;
    while (this.nextThreshold < this.thresholds.length && this.rowsFilled >= this.thresholds[this.nextThreshold])
      this.nextThreshold += 1;
    if (this.nextThreshold === passedBefore) return Promise.resolve();
    return this.sql.query('ANALYZE s2sp_resource').then(
      () => undefined,
      (error: unknown) => {
        this.logger.warn(
          `Could not analyze s2sp_resource (${error instanceof Error ? error.message : String(error)}); ` +
            'its statements keep their plans until autovacuum analyzes it',
        );
      },
    );
  }
}
