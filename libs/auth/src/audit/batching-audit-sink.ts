import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { ResolvedAuditDelivery } from './audit-delivery';
import type { AuditEvent } from './audit-event';
import type { AuditSink } from './audit-sink';
import type { AuditWriteStatus, AuditWriteStatusSource } from './audit-write-status';
import { RetryingBatchWriter } from './retrying-batch-writer';

/**
 * The `batched` audit delivery: queues decisions and hands them to the real
 * sink in groups (its `recordMany` when it has one), so a request pays no
 * audit write of its own. Writes are serialized; a failed group goes back to
 * the front of the queue and is retried with backoff (see
 * {@link RetryingBatchWriter}). A full queue makes `record` wait for the sink
 * (and fail with it). Everything still queued is written before the app shuts
 * down (before the database closes).
 * @public
 */
export class BatchingAuditSink implements AuditSink, AuditWriteStatusSource, BeforeApplicationShutdown {
  private readonly writer: RetryingBatchWriter<AuditEvent>;

  constructor(target: AuditSink, options: ResolvedAuditDelivery) {
    const store = async (batch: readonly AuditEvent[]): Promise<void> => {
      if (target.recordMany) await target.recordMany(batch);
      else for (const event of batch) await target.record(event);
    };
    this.writer = new RetryingBatchWriter('audit decisions', store, options);
  }

  /** Decisions waiting to be written. */
  get pending(): number {
    return this.writer.pending;
  }

  record(event: AuditEvent): void | Promise<void> {
    return this.writer.enqueue(event);
  }

  async recordMany(events: readonly AuditEvent[]): Promise<void> {
    for (const event of events) await this.record(event);
  }

  /** Writes everything queued so far; rejects if the sink fails (the events stay queued). */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  auditWriteStatus(): AuditWriteStatus {
    return this.writer.status();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.writer.close();
  }
}
