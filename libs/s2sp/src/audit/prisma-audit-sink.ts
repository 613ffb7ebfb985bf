import type { AuditEvent, AuditSink } from '@s2sp/auth';
import type { PrismaClient } from '../persistence/generated/client';

/**
 * Writes every authorization decision to `s2sp_audit_event`. `record` resolves
 * once the row is stored, so an allow decision is never acted on unaudited.
 */
export class PrismaAuditSink implements AuditSink {
  constructor(private readonly prisma: PrismaClient) {}

  async record(event: AuditEvent): Promise<void> {
    await this.prisma.auditEvent.create({
      data: {
        time: new Date(event.time),
        decision: event.decision,
        outcome: event.outcome,
        authenticationFailure: event.authenticationFailure ?? null,
        subject: event.subject ?? null,
        delegatedBy: [...event.delegatedBy],
        clientId: event.clientId ?? null,
        tokenId: event.tokenId ?? null,
        issuer: event.issuer ?? null,
        callerScopes: event.callerScopes ? [...event.callerScopes] : undefined,
        protocol: event.protocol,
        service: event.service,
        operation: event.operation,
        requiredScopes: [...event.requiredScopes],
        missingScopes: [...event.missingScopes],
        mutationClass: event.mutationClass,
        approval: event.approval ? { ...event.approval } : undefined,
        traceId: event.traceId ?? null,
        remoteAddress: event.remoteAddress ?? null,
      },
    });
  }
}
