import { Logger } from '@nestjs/common';
import { errorKind, type AuditWriteStatus } from './audit-write-status';

/** @public */
export interface RetryingBatchWriterOptions {
  /** Longest an item waits before it is written, and the first retry delay, ms. */
  flushIntervalMs: number;
  /** Most items per write. */
  maxBatchSize: number;
  /** Buffered items at which `enqueue` waits for the store (and fails with it). */
  maxPending: number;
  /** Longest delay between retries, ms (the delay doubles from flushIntervalMs up to this). */
  maxRetryDelayMs: number;
}

/**
 * Buffers audit records and writes them in groups, serialized. A failed group
 * goes back to the front of the buffer and is retried with backoff, for as
 * long as the store fails: records are never dropped while there is room. A
 * full buffer makes `enqueue` wait for the store, and fail with it (that
 * record is withdrawn and counted as rejected). `close` writes what is left.
 * @public
 */
export class RetryingBatchWriter<T> {
  private readonly queue: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerDueAt = 0;
  private writes: Promise<void> = Promise.resolve();
  private consecutiveFailures = 0;
  private failedWrites = 0;
  private rejected = 0;
  private lastError: string | undefined;
  private lastFailureAt: Date | undefined;
  private closed = false;

  constructor(
    /** What the records are, in log lines ("audit decisions"). */
    private readonly what: string,
    private readonly store: (batch: readonly T[]) => Promise<void>,
    private readonly options: RetryingBatchWriterOptions,
    private readonly onWriteFailed: (error: unknown) => void = () => undefined,
    private readonly logger: Pick<Logger, 'error'> = new Logger('S2spAudit'),
  ) {}

  get pending(): number {
    return this.queue.length;
  }

  /** Buffers `item`; after `close`, writes it at once. Waits (and may fail) only when the buffer is full. */
  enqueue(item: T): void | Promise<void> {
    if (this.closed) return this.write([item]);
    this.queue.push(item);
    if (this.queue.length >= this.options.maxPending) return this.flushOrWithdraw(item);
    this.scheduleFlush(this.queue.length >= this.options.maxBatchSize ? 0 : this.options.flushIntervalMs);
  }

  /** Writes everything buffered so far; rejects if the store fails (the records stay buffered). */
  flush(): Promise<void> {
    this.cancelTimer();
    const written = this.writes.then(() => this.writeQueued());
    this.writes = written.catch(() => undefined);
    return written;
  }

  /** Stops buffering and writes what is left; logs what could not be stored. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.flush();
    } catch {
      this.logger.error(`${this.queue.length} ${this.what} could not be stored before shutdown`);
    }
  }

  status(): AuditWriteStatus {
    return {
      status: this.consecutiveFailures > 0 ? 'failing' : 'ok',
      pending: this.queue.length,
      failedWrites: this.failedWrites,
      consecutiveFailures: this.consecutiveFailures,
      rejected: this.rejected,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.lastFailureAt !== undefined ? { lastFailureAt: this.lastFailureAt.toISOString() } : {}),
    };
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatchSize);
      try {
        await this.write(batch);
      } catch (error) {
        this.queue.unshift(...batch);
        const retryInMs = Math.min(
          this.options.maxRetryDelayMs,
          this.options.flushIntervalMs * 2 ** this.consecutiveFailures,
        );
        this.logger.error(
          `could not store ${batch.length} ${this.what} (${errorKind(error)}); ${this.queue.length} buffered, retrying in ${retryInMs} ms`,
        );
        if (!this.closed) this.scheduleFlush(retryInMs);
        throw error;
      }
    }
  }

  /** One write attempt, counted. */
  private async write(batch: readonly T[]): Promise<void> {
    try {
      await this.store(batch);
      this.consecutiveFailures = 0;
    } catch (error) {
      this.consecutiveFailures++;
      this.failedWrites++;
      this.lastError = errorKind(error);
      this.lastFailureAt = new Date();
      this.onWriteFailed(error);
      throw error;
    }
  }

  /** Backpressure: the caller waits for the store; if it cannot store, this record is not kept. */
  private async flushOrWithdraw(item: T): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      const index = this.queue.lastIndexOf(item);
      if (index >= 0) {
        this.queue.splice(index, 1);
        this.rejected++;
      }
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
