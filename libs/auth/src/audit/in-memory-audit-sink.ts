import { Injectable } from '@nestjs/common';
import type { AuditEvent } from './audit-event';
import type { AuditSink } from './audit-sink';

/**
 * Keeps the latest events in memory (bounded), for tests and debugging.
 * @public
 */
@Injectable()
export class InMemoryAuditSink implements AuditSink {
  private readonly stored: AuditEvent[] = [];

  constructor(private readonly capacity = 10_000) {}

  record(event: AuditEvent): void {
    this.stored.push(Object.freeze({ ...event }));
    if (this.stored.length > this.capacity) this.stored.splice(0, this.stored.length - this.capacity);
  }

  get events(): readonly AuditEvent[] {
    return [...this.stored];
  }

  clear(): void {
    this.stored.length = 0;
  }
}
