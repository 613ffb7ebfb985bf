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

interface IdempotencyRow {
  key_hash: string;
  method: string;
  request_hash: string;
  state: string;
  response: { result?: unknown } | null;
  expires_at: Date;
}

/**
 * IdempotencyStore on the IdempotencyRecord table, every statement on the database's driver:
 * a gateway then never loads Prisma's query compiler (about 90 MiB resident). The primary key
 * (key_hash) makes claim atomic: of concurrent inserts for one key, one inserts a row.
 * The result is stored wrapped as { result } so that a null result is storable.
 */
@Injectable()
export class PrismaIdempotencyStore implements IdempotencyStore {
  constructor(@Inject(GATEWAY_DATABASE) private readonly database: S2spDatabase) {}

  async claim(record: NewIdempotencyRecord): Promise<boolean> {
    const inserted = await this.database.sql.query(
      `INSERT INTO idempotency_record (key_hash, method, request_hash, state, expires_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key_hash) DO NOTHING RETURNING key_hash`,
      [record.keyHash, record.method, record.requestHash, IN_PROGRESS, record.expiresAt],
    );
    return inserted.length === 1;
  }

  async find(keyHash: string): Promise<IdempotencyRecordView | undefined> {
    const [row] = await this.database.sql.query<IdempotencyRow>(
      'SELECT key_hash, method, request_hash, state, response, expires_at FROM idempotency_record WHERE key_hash = $1',
      [keyHash],
    );
    if (!row) return undefined;
    return {
      keyHash: row.key_hash,
      method: row.method,
      requestHash: row.request_hash,
      state: row.state === COMPLETED ? COMPLETED : IN_PROGRESS,
      result: row.response?.result ?? null,
      expiresAt: row.expires_at,
    };
  }

  async complete(keyHash: string, result: unknown, expiresAt: Date): Promise<void> {
    await this.database.sql.query(
      `UPDATE idempotency_record SET state = $3, response = $4::jsonb, expires_at = $5
       WHERE key_hash = $1 AND state = $2`,
      [keyHash, IN_PROGRESS, COMPLETED, JSON.stringify({ result: result ?? null }), expiresAt],
    );
  }

  async release(keyHash: string): Promise<void> {
    await this.database.sql.query('DELETE FROM idempotency_record WHERE key_hash = $1 AND state = $2', [
      keyHash,
      IN_PROGRESS,
    ]);
  }

  async deleteIfExpired(keyHash: string, now: Date): Promise<void> {
    await this.database.sql.query('DELETE FROM idempotency_record WHERE key_hash = $1 AND expires_at <= $2', [
      keyHash,
      now,
    ]);
  }

  async sweepExpired(now: Date): Promise<number> {
    const [deleted] = await this.database.sql.query<{ count: number }>(
      `WITH deleted AS (DELETE FROM idempotency_record WHERE expires_at <= $1 RETURNING 1)
       SELECT count(*)::int AS count FROM deleted`,
      [now],
    );
    return deleted?.count ?? 0;
  }
}
