import type { SqlQuery } from '@s2sp/platform';
import { isDatabaseUnavailable } from '@s2sp/platform/internal';
import { FILL_RESERVED, type ReservedRowFill } from './prisma-resource-store.sql';
import { ResourceTableAnalysis } from './resource-table-analysis';

/** A batch this large is written at once: so many fills, or blocks this long in all (UTF-16 code units). */
const MAX_FILLS_PER_STATEMENT = 256;
const MAX_BLOCK_LENGTH_PER_STATEMENT = 1024 * 1024;

interface QueuedFill {
  fill: ReservedRowFill;
  /** False once the fill is no longer needed (its resource was claimed meanwhile): it is dropped unwritten. */
  wanted: () => boolean;
  resolve: (filled: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Fills reserved rows, gathering the fills that arrive within `gatherMs` of the first into one
 * statement: every answer issued on a reserved row would otherwise cost a statement of its own
 * after the answer, competing with the next calls for the CPU and the database (a statement costs
 * PostgreSQL several times what one more row in it does). A fill no longer wanted when its batch
 * is written is dropped. A batch the database refuses for any reason but being unreachable (a
 * value PostgreSQL rejects, such as a NUL character) is written again one fill per statement, so
 * one resource cannot fail the others; an unreachable database fails them all, for the caller's
 * retry.
 */
export class ReservedRowFills {
  private queue: QueuedFill[] = [];
  private queuedBlockLength = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Set by {@link drain}: the process is stopping, so nothing waits to be gathered. */
  private draining = false;

  constructor(
    private readonly sql: SqlQuery,
    /** How long the first fill waits for others to share its statement. */
    private readonly gatherMs: number,
    private readonly analysis: ResourceTableAnalysis = new ResourceTableAnalysis(sql),
  ) {}

  /**
   * Resolves true once the row is filled, false when it is no longer reserved (claimed, or gone) or
   * the fill was dropped because `wanted` said no when its batch was written.
   */
  fill(fill: ReservedRowFill, wanted: () => boolean = () => true): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ fill, wanted, resolve, reject });
      this.queuedBlockLength += fill.block?.length ?? 0;
      const full =
        this.queue.length >= MAX_FILLS_PER_STATEMENT || this.queuedBlockLength >= MAX_BLOCK_LENGTH_PER_STATEMENT;
      if (full) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.draining ? 0 : this.gatherMs);
    });
  }

  /** Writes what waits at once, and from now on gathers only the fills of one turn of the event loop. */
  drain(): void {
    this.draining = true;
    if (this.queue.length > 0) this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch: QueuedFill[] = [];
    for (const queued of this.queue.splice(0)) {
      if (queued.wanted()) batch.push(queued);
      else queued.resolve(false);
    }
    this.queuedBlockLength = 0;
    if (batch.length === 0) return;
    void (batch.length === 1 ? this.writeAlone(batch[0]) : this.writeBatch(batch));
  }

  private async writeBatch(batch: QueuedFill[]): Promise<void> {
    let filled: Set<string>;
    try {
      filled = await fillRows(
        this.sql,
        batch.map((queued) => queued.fill),
      );
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        for (const queued of batch) queued.reject(error);
        return;
      }
      await Promise.all(batch.map((queued) => this.writeAlone(queued)));
      return;
    }
    void this.analysis.filled(filled.size);
    for (const queued of batch) queued.resolve(filled.has(queued.fill.id));
  }

  private async writeAlone(queued: QueuedFill): Promise<void> {
    try {
      const filled = (await fillRows(this.sql, [queued.fill])).has(queued.fill.id);
      void this.analysis.filled(filled ? 1 : 0);
      queued.resolve(filled);
    } catch (error) {
      queued.reject(error);
    }
  }
}

/** Runs {@link FILL_RESERVED} on `sql`; the ids of the rows filled. */
export async function fillRows(sql: SqlQuery, fills: ReservedRowFill[]): Promise<Set<string>> {
  const rows = await sql.query<{ id: string }>(FILL_RESERVED, [JSON.stringify(fills), fills.map((fill) => fill.id)]);
  return new Set(rows.map((row) => row.id));
}
