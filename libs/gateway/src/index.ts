export * from './gateway';
export { defaultGatewayConfig, gatewayConfigFromEnv, type GatewayConfig } from './gateway.config';
export { type GatewayModuleExtras, type GatewayModuleAsyncOptions, GatewayModule } from './gateway.module';
export { GATEWAY_DATABASE } from './gateway.constants';
export * from './idempotency/idempotency-store';
// The approval policy and the audit are AuthModule's seams (GatewayModuleExtras' approvalProvider, auditSink).
export { APPROVAL_PROVIDER, AUDIT_SINK, type ApprovalProvider, type AuditSink } from '@s2sp/auth';
export { type AgentsLoadBalancing, AGENTS_LOAD_BALANCING_POLICIES } from './grpc/agents-target';
export { type ConsoleOptions } from './console/console-options';
