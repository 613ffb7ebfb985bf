import type { AuditEvent, AuditSink } from '@s2sp/auth';
import type { PrismaClient } from '../persistence/generated/client';

/**
 * Writes authorization decisions to `s2sp_audit_event`; each call resolves
 * once its rows are stored. A group is one statement with one JSON parameter
 * (`jsonb_to_recordset`), whatever its size: Prisma's `createMany` spends
 * ≈ 0.8 ms per row on the embedded database, this ≈ 0.05 ms.
 */
export class PrismaAuditSink implements AuditSink {
  constructor(private readonly prisma: PrismaClient) {}

  record(event: AuditEvent): Promise<void> {
    return this.recordMany([event]);
  }

  async recordMany(events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.prisma.$executeRaw`
      INSERT INTO "s2sp_audit_event" (
        "id", "time", "decision", "outcome", "authentication_failure", "subject", "delegated_by", "client_id", "token_id",
        "issuer", "caller_scopes", "protocol", "service", "operation", "required_scopes", "missing_scopes",
        "mutation_class", "approval", "trace_id", "remote_address")
      SELECT gen_random_uuid(), "time", "decision", "outcome", "authentication_failure", "subject", "delegated_by", "client_id", "token_id",
        "issuer", "caller_scopes", "protocol", "service", "operation", "required_scopes", "missing_scopes",
        "mutation_class", "approval", "trace_id", "remote_address"
      FROM jsonb_to_recordset(${JSON.stringify(events.map(auditRow))}::jsonb) AS row(
        "time" timestamptz(3), "decision" text, "outcome" text, "authentication_failure" text, "subject" text,
        "delegated_by" jsonb, "client_id" text, "token_id" text, "issuer" text, "caller_scopes" jsonb,
        "protocol" text, "service" text, "operation" text, "required_scopes" jsonb, "missing_scopes" jsonb,
        "mutation_class" text, "approval" jsonb, "trace_id" text, "remote_address" text)`;
  }
}

/** The event under the table's column names; a column left out is SQL NULL (not JSON null). */
function auditRow(event: AuditEvent): Record<string, unknown> {
  const row: Record<string, unknown> = {
    time: event.time,
    decision: event.decision,
    outcome: event.outcome,
    authentication_failure: event.authenticationFailure ?? null,
    subject: event.subject ?? null,
    delegated_by: event.delegatedBy,
    client_id: event.clientId ?? null,
    token_id: event.tokenId ?? null,
    issuer: event.issuer ?? null,
    caller_scopes: event.callerScopes ?? null,
    protocol: event.protocol,
    service: event.service,
    operation: event.operation,
    required_scopes: event.requiredScopes,
    missing_scopes: event.missingScopes,
    mutation_class: event.mutationClass,
    approval: event.approval ?? null,
    trace_id: event.traceId ?? null,
    remote_address: event.remoteAddress ?? null,
  };
  for (const column of Object.keys(row)) if (row[column] === null) delete row[column];
  return row;
}
