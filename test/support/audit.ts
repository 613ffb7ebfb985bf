import type { INestApplicationContext } from '@nestjs/common';
import { AUDIT_SINK, type AuditSink } from '../../libs/auth/src';

/** Stores every decision an app has queued (the default delivery is batched), so a test can read its audit table. */
export async function flushAudit(...apps: INestApplicationContext[]): Promise<void> {
  for (const app of apps) await app.get<AuditSink>(AUDIT_SINK).flush?.();
}
