import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ResolvedAuditDelivery } from './audit-delivery';
import type { AuditEvent } from './audit-event';
import type { AuditSink } from './audit-sink';

const MAX_RETRY_DELAY_MS = 5_000;

/**
 * The `batched` audit delivery: queues decisions and hands them to the real
 * sink in groups (its `recordMany` when it has one), so a request pays no
 * audit write of its own. Writes are serialized; a failed group goes back to
 * the front of the queue and is retried with backoff. A full queue makes
 * `record` wait for the sink (and fail with it). Everything still queued is
 * written before the app shuts down (before the database closes).
 */
export class BatchingAuditSink implements AuditSink, BeforeApplicationShutdown {
  private readonly logger = new Logger('S2spAudit');
  private readonly queue: AuditEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerDueAt = 0;
  private writes: Promise<void> = Promise.resolve();
  private consecutiveFailures = 0;
  private closed = false;

  constructor(
    private readonly target: AuditSink,
    private readonly options: ResolvedAuditDelivery,
  ) {}

  /** Decisions waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  record(event: AuditEvent): void | Promise<void> {
    if (this.closed) return this.store([event]);
    this.queue.push(event);
    if (this.queue.length >= this.options.maxPending) return this.flushOrWithdraw(event);
    this.scheduleFlush(this.queue.length >= this.options.maxBatchSize ? 0 : this.options.flushIntervalMs);
  }

  async recordMany(events: readonly AuditEvent[]): Promise<void> {
    for (const event of events) await this.record(event);
  }

  /** Writes everything queued so far; rejects if the sink fails (the events stay queued). */
  flush(): Promise<void> {
    this.cancelTimer();
    const written = this.writes.then(() => this.writeQueued());
    this.writes = written.catch(() => undefined);
    return written;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    try {
      await this.flush();
    } catch {
      this.logger.error(`${this.queue.length} audit decisions could not be stored before shutdown`);
    }
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatchSize);
      try {
        await this.store(batch);
        this.consecutiveFailures = 0;
      } catch (error) {
        this.queue.unshift(...batch);
        this.consecutiveFailures++;
        const retryInMs = Math.min(MAX_RETRY_DELAY_MS, this.options.flushIntervalMs * 2 ** this.consecutiveFailures);
        this.logger.error(
          `audit sink failed to store ${batch.length} decisions (${error instanceof Error ? error.name : 'unknown error'}); ${this.queue.length} queued, retrying in ${retryInMs} ms`,
        );
        if (!this.closed) this.scheduleFlush(retryInMs);
        throw error;
      }
    }
  }

  private async store(batch: readonly AuditEvent[]): Promise<void> {
    if (this.target.recordMany) await this.target.recordMany(batch);
    else for (const event of batch) await this.target.record(event);
  }

  /** Backpressure: the caller waits for the sink; if it cannot store, this decision is not acted on. */
  private async flushOrWithdraw(event: AuditEvent): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      const index = this.queue.indexOf(event);
      if (index >= 0) this.queue.splice(index, 1);
      throw error;
    }
  }

  private scheduleFlush(delayMs: number): void {
    const dueAt = Date.now() + delayMs;
    if (this.timer && this.timerDueAt <= dueAt) return;
    this.cancelTimer();
    this.timerDueAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined); // logged in writeQueued, retried by its timer
    }, delayMs);
    this.timer.unref();
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
