export * from './gateway';
export * from './gateway.config';
export * from './gateway.module';
export { GATEWAY_CONFIG, GATEWAY_DATABASE } from './gateway.constants';
export type { HealthReport, HealthStatus } from './health/gateway-health.service';
export * from './idempotency/idempotency-store';
// The approval policy and the audit are AuthModule's seams (GatewayModuleExtras' approvalProvider, auditSink).
export { APPROVAL_PROVIDER, AUDIT_SINK, type ApprovalProvider, type AuditSink } from '@s2sp/auth';
