import { Module, type DynamicModule, type InjectionToken } from '@nestjs/common';
import { AuthModule, type AuthModuleOptions } from '@s2sp/auth';
import type { SqlDatabase } from '@s2sp/platform';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { AuditRetention, DEFAULT_AUDIT_RETENTION, type AuditRetentionOptions } from '../audit/audit-retention';
import { PrismaAuditSink } from '../audit/prisma-audit-sink';
import { S2SP_DATABASE } from '../config/s2sp.constants';

/** Holds AuthModule and the retention of the audit trails it writes to. */
@Module({})
export class S2spAuthModule {}

/**
 * AuthModule whose decisions are audited in `s2sp_audit_event` (unless
 * `auditSink` says otherwise), in the S2spModule database or in the
 * SqlDatabase behind `database`, which must be provided globally. Audit
 * records older than `auditRetention` are deleted (default DEFAULT_AUDIT_RETENTION:
 * 30 days; an app configured from the environment passes auditRetentionFromEnv()).
 */
export function s2spAuthModule(
  options: AuthModuleOptions,
  database: InjectionToken = S2SP_DATABASE,
  auditRetention: AuditRetentionOptions = DEFAULT_AUDIT_RETENTION,
): DynamicModule {
  return {
    module: S2spAuthModule,
    imports: [
      AuthModule.forRoot({
        auditSink: {
          useFactory: (db: SqlDatabase, metrics?: TelemetryMetrics) => new PrismaAuditSink(db, metrics),
          inject: [database, { token: TelemetryMetrics, optional: true }],
        },
        ...options,
      }),
    ],
    providers: [
      {
        provide: AuditRetention,
        useFactory: (db: SqlDatabase) => new AuditRetention(db.sql, auditRetention),
        inject: [database],
      },
    ],
    exports: [AuditRetention],
  };
}
