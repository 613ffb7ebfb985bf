import { Inject, Injectable } from '@nestjs/common';
import type { S2spDatabase } from '@s2sp/database';
import { GATEWAY_DATABASE } from '../gateway.constants';
import type {
  IdempotencyRecordView,
  IdempotencyState,
  IdempotencyStore,
  NewIdempotencyRecord,
} from './idempotency-store';

const IN_PROGRESS: IdempotencyState = 'IN_PROGRESS';
const COMPLETED: IdempotencyState = 'COMPLETED';
/** Prisma's code for a unique-constraint violation. */
const UNIQUE_VIOLATION = 'P2002';

/**
 * IdempotencyStore on the IdempotencyRecord table. The primary key (keyHash)
 * makes claim atomic: a second insert for the same key fails.
 * The result is stored wrapped as { result } so that a null result is storable.
 */
@Injectable()
export class PrismaIdempotencyStore implements IdempotencyStore {
  constructor(@Inject(GATEWAY_DATABASE) private readonly database: S2spDatabase) {}

  private get records() {
    return this.database.client.idempotencyRecord;
  }

  async claim(record: NewIdempotencyRecord): Promise<boolean> {
    try {
      await this.records.create({ data: { ...record, state: IN_PROGRESS } });
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }

  async find(keyHash: string): Promise<IdempotencyRecordView | undefined> {
    const row = await this.records.findUnique({ where: { keyHash } });
    if (!row) return undefined;
    const stored = row.response as { result?: unknown } | null;
    return {
      keyHash: row.keyHash,
      method: row.method,
      requestHash: row.requestHash,
      state: row.state === COMPLETED ? COMPLETED : IN_PROGRESS,
      result: stored?.result ?? null,
      expiresAt: row.expiresAt,
    };
  }

  async complete(keyHash: string, result: unknown, expiresAt: Date): Promise<void> {
    await this.records.updateMany({
      where: { keyHash, state: IN_PROGRESS },
      data: { state: COMPLETED, response: { result: result ?? null }, expiresAt },
    });
  }

  async release(keyHash: string): Promise<void> {
    await this.records.deleteMany({ where: { keyHash, state: IN_PROGRESS } });
  }

  async deleteIfExpired(keyHash: string, now: Date): Promise<void> {
    await this.records.deleteMany({ where: { keyHash, expiresAt: { lte: now } } });
  }

  async sweepExpired(now: Date): Promise<number> {
    const { count } = await this.records.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
