import type { BeforeApplicationShutdown } from '@nestjs/common';
import { RetryingBatchWriter, type AuditWriteStatus, type AuditWriteStatusSource } from '@s2sp/auth';
import type { TelemetryMetrics } from '@s2sp/telemetry';
import { envInt } from '@s2sp/platform';
import type { SqlQuery } from '@s2sp/platform';
import type { SqlDatabase } from '@s2sp/platform/internal';
import type { DataPlaneFetchAudit, DataPlaneFetchRecord } from './data-plane-fetch-audit';
import { recordsetInsert } from './recordset-insert';
import { storable } from './storable-text';

/**
 * How long fetch records may wait, and how many, while the database fails.
 * @public
 */
export interface DataPlaneFetchAuditRetry {
  /** Records buffered at which `record` fails instead (default 10,000; dataPlaneFetchAuditRetryFromEnv: S2SP_DATA_FETCH_AUDIT_MAX_PENDING). */
  maxPending: number;
  /** Longest delay between retries, ms (default 5,000; dataPlaneFetchAuditRetryFromEnv: S2SP_DATA_FETCH_AUDIT_MAX_RETRY_DELAY_MS). */
  maxRetryDelayMs: number;
}

export const DATA_PLANE_FETCH_AUDIT_ENV = Object.freeze({
  maxPending: 'S2SP_DATA_FETCH_AUDIT_MAX_PENDING',
  maxRetryDelayMs: 'S2SP_DATA_FETCH_AUDIT_MAX_RETRY_DELAY_MS',
});

export const DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY: Readonly<DataPlaneFetchAuditRetry> = Object.freeze({
  maxPending: 10_000,
  maxRetryDelayMs: 5_000,
});

/**
 * The retry bounds the S2SP_DATA_FETCH_AUDIT_* variables set, for an app's configuration to pass on (unset: the defaults).
 * @public
 */
export function dataPlaneFetchAuditRetryFromEnv(): DataPlaneFetchAuditRetry {
  return {
    maxPending: envInt(DATA_PLANE_FETCH_AUDIT_ENV.maxPending, DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY.maxPending, {
      min: 1,
      max: 1_000_000,
    }),
    maxRetryDelayMs: envInt(
      DATA_PLANE_FETCH_AUDIT_ENV.maxRetryDelayMs,
      DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY.maxRetryDelayMs,
      {
        min: 1,
        max: 600_000,
      },
    ),
  };
}

const INSERT_FETCHES = recordsetInsert('s2sp_data_fetch', [
  ['time', 'timestamptz(3)'],
  ['resource_id', 'uuid'],
  ['tool_name', 'text'],
  ['subject', 'text'],
  ['consumer', 'text'],
  ['delegated_by', 'jsonb'],
  ['caller_scopes', 'jsonb'],
  ['result', 'text'],
  ['reason', 'text'],
  ['rows', 'int'],
  ['columns', 'int'],
  ['bytes', 'int'],
  ['trace_id', 'text'],
]);

/** A fetch record under the table's column names; a column left out is SQL NULL. */
type FetchRow = Record<string, unknown>;

const FIRST_RETRY_DELAY_MS = 100;
const MAX_ROWS_PER_WRITE = 500;

/**
 * Audits every data-plane fetch in `s2sp_data_fetch`, written before `record`
 * resolves. If the database fails, the record stays buffered and is retried
 * with backoff (later records queue behind it, in order); `record` fails only
 * when the buffer is full. Failed writes count in
 * `audit_write_failures_total{trail="data-fetches"}` and show in health.
 * @public
 */
export class PrismaDataPlaneFetchAudit
  implements DataPlaneFetchAudit, AuditWriteStatusSource, BeforeApplicationShutdown
{
  private readonly writer: RetryingBatchWriter<FetchRow>;
  private readonly sql: SqlQuery;

  constructor(
    database: Pick<SqlDatabase, 'sql'>,
    metrics?: TelemetryMetrics,
    retry: DataPlaneFetchAuditRetry = DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY,
  ) {
    this.sql = database.sql;
    this.writer = new RetryingBatchWriter(
      'data-plane fetch records',
      async (rows) => {
        await this.sql.query(INSERT_FETCHES, [JSON.stringify(rows)]);
      },
      {
        flushIntervalMs: FIRST_RETRY_DELAY_MS,
        maxBatchSize: MAX_ROWS_PER_WRITE,
        maxPending: retry.maxPending,
        maxRetryDelayMs: retry.maxRetryDelayMs,
      },
      () => metrics?.auditWriteFailed('data-fetches'),
    );
  }

  async record(fetch: DataPlaneFetchRecord): Promise<void> {
    const full = this.writer.enqueue(storable(rowOf(fetch)));
    if (full) return full;
    // A failure leaves the record buffered for the retries: it is not lost, so the fetch goes on.
    await this.writer.flush().catch(() => undefined);
  }

  auditWriteStatus(): AuditWriteStatus {
    return this.writer.status();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.writer.close();
  }
}

function rowOf(fetch: DataPlaneFetchRecord): FetchRow {
  return {
    time: fetch.time,
    resource_id: fetch.resourceId,
    tool_name: fetch.toolName,
    subject: fetch.subject,
    consumer: fetch.consumer,
    delegated_by: [...fetch.delegatedBy],
    caller_scopes: fetch.callerScopes ? [...fetch.callerScopes] : undefined,
    result: fetch.result,
    reason: fetch.reason,
    rows: fetch.rows,
    columns: fetch.columns,
    bytes: fetch.bytes,
    trace_id: fetch.traceId,
  };
}
