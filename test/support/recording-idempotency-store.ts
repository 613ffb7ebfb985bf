// An IdempotencyStore in memory that records what the gateway asked of it: the store a test puts
// in place of the PostgreSQL one through GatewayModuleExtras.
import type { IdempotencyRecordView, IdempotencyStore, NewIdempotencyRecord } from '@s2sp/gateway';

export class RecordingIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecordView>();
  readonly calls: string[] = [];

  async claim(record: NewIdempotencyRecord): Promise<boolean> {
    this.calls.push('claim');
    if (this.records.has(record.keyHash)) return false;
    this.records.set(record.keyHash, { ...record, state: 'IN_PROGRESS', result: undefined });
    return true;
  }
  async find(keyHash: string): Promise<IdempotencyRecordView | undefined> {
    this.calls.push('find');
    return this.records.get(keyHash);
  }
  async complete(keyHash: string, result: unknown, expiresAt: Date): Promise<void> {
    this.calls.push('complete');
    const record = this.records.get(keyHash);
    if (record) this.records.set(keyHash, { ...record, state: 'COMPLETED', result, expiresAt });
  }
  async release(keyHash: string): Promise<void> {
    this.calls.push('release');
    this.records.delete(keyHash);
  }
  async deleteIfExpired(): Promise<void> {}
  async sweepExpired(): Promise<number> {
    return 0;
  }
}
