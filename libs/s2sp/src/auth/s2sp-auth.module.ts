import type { DynamicModule } from '@nestjs/common';
import { AuthModule, type AuthModuleOptions } from '@s2sp/auth';
import { PrismaAuditSink } from '../audit/prisma-audit-sink';
import { S2SP_DATABASE } from '../config/s2sp.constants';
import type { S2spDatabase } from '../persistence/database';

/**
 * AuthModule for an S2SP server on the Prisma store: decisions are audited in
 * `s2sp_audit_event` of the S2spModule database unless `auditSink` says otherwise.
 */
export function s2spAuthModule(options: AuthModuleOptions): DynamicModule {
  return AuthModule.forRoot({
    auditSink: { useFactory: (database: S2spDatabase) => new PrismaAuditSink(database.client), inject: [S2SP_DATABASE] },
    ...options,
  });
}
