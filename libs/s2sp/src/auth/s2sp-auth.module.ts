import type { DynamicModule, InjectionToken } from '@nestjs/common';
import { AuthModule, type AuthModuleOptions } from '@s2sp/auth';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { PrismaAuditSink } from '../audit/prisma-audit-sink';
import { S2SP_DATABASE } from '../config/s2sp.constants';
import type { S2spDatabase } from '@s2sp/database';

/**
 * AuthModule whose decisions are audited in `s2sp_audit_event` (unless
 * `auditSink` says otherwise), in the S2spModule database or in the
 * S2spDatabase behind `database`, which must be provided globally.
 */
export function s2spAuthModule(options: AuthModuleOptions, database: InjectionToken = S2SP_DATABASE): DynamicModule {
  return AuthModule.forRoot({
    auditSink: {
      useFactory: (db: S2spDatabase, metrics?: TelemetryMetrics) => new PrismaAuditSink(db.client, metrics),
      inject: [database, { token: TelemetryMetrics, optional: true }],
    },
    ...options,
  });
}
