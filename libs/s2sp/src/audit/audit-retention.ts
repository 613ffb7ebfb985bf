import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { SqlChannel } from '@s2sp/platform';
import { envInt } from '@s2sp/platform';
import { PeriodicSweep } from '@s2sp/platform/internal';

/** @public */
export interface AuditRetentionOptions {
  /**
   * Records older than this are deleted; 0 keeps them forever. Default 30 days
   * (auditRetentionFromEnv: S2SP_AUDIT_RETENTION_DAYS, or S2SP_AUDIT_RETENTION_MS for a shorter one, which wins).
   */
  retentionMs: number;
  /** How often old records are looked for, ms. Default 1 hour (auditRetentionFromEnv: S2SP_AUDIT_RETENTION_SWEEP_MS). */
  sweepIntervalMs: number;
  /** Rows deleted per statement, so that one sweep never holds long locks. Default 10,000. */
  batchSize: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const AUDIT_RETENTION_ENV = Object.freeze({
  retentionDays: 'S2SP_AUDIT_RETENTION_DAYS',
  retentionMs: 'S2SP_AUDIT_RETENTION_MS',
  sweepIntervalMs: 'S2SP_AUDIT_RETENTION_SWEEP_MS',
});

/**
 * 30 days, looked for every hour, 10,000 rows a statement.
 * @beta
 */
export const DEFAULT_AUDIT_RETENTION: Readonly<AuditRetentionOptions> = Object.freeze({
  retentionMs: 30 * DAY_MS,
  sweepIntervalMs: 60 * 60 * 1000,
  batchSize: 10_000,
});

/**
 * The retention the S2SP_AUDIT_RETENTION_* variables set, for an app's configuration to pass on (unset: the defaults).
 * @public
 */
export function auditRetentionFromEnv(): AuditRetentionOptions {
  const days = envInt(AUDIT_RETENTION_ENV.retentionDays, DEFAULT_AUDIT_RETENTION.retentionMs / DAY_MS, {
    min: 0,
    max: 36_500,
  });
  return {
    retentionMs: envInt(AUDIT_RETENTION_ENV.retentionMs, days * DAY_MS, { min: 0, max: 36_500 * DAY_MS }),
    sweepIntervalMs: envInt(AUDIT_RETENTION_ENV.sweepIntervalMs, DEFAULT_AUDIT_RETENTION.sweepIntervalMs, {
      min: 1_000,
      max: DAY_MS,
    }),
    batchSize: DEFAULT_AUDIT_RETENTION.batchSize,
  };
}

/** The audit trails this app writes: authorization decisions and data-plane fetches. */
const AUDIT_TABLES = ['s2sp_audit_event', 's2sp_data_fetch'] as const;

/**
 * Keeps the audit trails from growing without bound: at start and then every
 * `sweepIntervalMs`, deletes the records older than the retention, in batches.
 * At 8,000 audited calls a minute the decisions alone take about 5 MB a minute.
 */
export class AuditRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly sweeper = new PeriodicSweep(
    'audit records',
    () => this.sweepOnce(),
    new Logger('S2spAuditRetention'),
  );

  constructor(
    private readonly sql: SqlChannel,
    private readonly options: AuditRetentionOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.retentionMs > 0) this.sweeper.start(this.options.sweepIntervalMs, { immediately: true });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
  }

  /** Deletes every record older than the retention; resolves to how many. */
  async sweepOnce(now: Date = new Date()): Promise<number> {
    if (this.options.retentionMs <= 0) return 0;
    const before = new Date(now.getTime() - this.options.retentionMs);
    let deleted = 0;
    for (const table of AUDIT_TABLES) {
      for (;;) {
        const [{ count } = { count: 0 }] = await this.sql.query<{ count: number }>(
          `WITH gone AS (DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE time < $1 LIMIT $2) RETURNING 1)
           SELECT count(*)::int AS count FROM gone`,
          [before, this.options.batchSize],
        );
        deleted += count;
        if (count < this.options.batchSize) break;
      }
    }
    return deleted;
  }
}
