export * from './s2sp.module';
export {
  type S2spLimits,
  type S2spDatabaseOptions,
  type S2spModuleOptions,
  type ResourceStoreProvider,
  type S2spModuleAsyncOptions,
  type ResolvedS2spOptions,
  DEFAULT_ARROW_MIN_ROWS,
} from './config/s2sp-options';
export { S2SP_DATABASE } from './config/s2sp.constants';
export { S2spResourceTool, type S2spResourceToolOptions } from './resource/s2sp-resource-tool.decorator';
export * from './resource/resource-publisher.service';
export { S2spConsumerTool, type S2spConsumerToolOptions } from './consumer/s2sp-consumer-tool.decorator';
export { type S2spConsumerConfirmation } from './consumer/s2sp-consumer-tool.options';
export * from './consumer/consumer-tool.interceptor';
export * from './consumer/data-plane-client.service';
export * from './data-plane/data-plane.service';
export * from './data-plane/expired-resource-sweeper';
export * from './store/resource-store.interface';
export {
  type ResourceWriteMode,
  type ResourceClaimCommit,
  type PrismaResourceStoreOptions,
  PrismaResourceStore,
} from './store/prisma-resource-store';
export * from './store/in-memory-resource-store';
export { ResourceTable } from './store/resource-table';
export { type Row } from './protocol/row';
export * from './protocol/s2sp-error';
export { resourceToolOutputSchema } from './protocol/s2sp-payload';
export { toColumnar, type ColumnarRows } from './protocol/columnar-rows';
export { type SplitResult } from './protocol/split-rows';
export * from './protocol/consumer-input';
export { type ToolResult } from './protocol/tool-result';
export * from './bootstrap/serve-mcp';
export { type McpServerAuthOptions } from './auth/mcp-protected-resource';
export { S2SP_META } from './protocol/s2sp-meta';
export * from './consumer/data-plane-credentials.service';
export * from './audit/prisma-audit-sink';
export { auditRetentionFromEnv, type AuditRetentionOptions, DEFAULT_AUDIT_RETENTION } from './audit/audit-retention';
export {
  type DataPlaneFetchResult,
  type DataPlaneFetchRecord,
  type DataPlaneFetchAudit,
  DATA_PLANE_FETCH_AUDIT,
} from './audit/data-plane-fetch-audit';
export {
  dataPlaneFetchAuditRetryFromEnv,
  type DataPlaneFetchAuditRetry,
  PrismaDataPlaneFetchAudit,
} from './audit/prisma-data-plane-fetch-audit';
export { McpToolAuthGuard } from './auth/mcp-tool-auth.guard';
export * from './auth/s2sp-tool-auth.guard';
export {
  s2spAuthModule,
  s2spAuthModuleAsync,
  type S2spAuthSettings,
  type S2spAuthModuleWiring,
  type S2spAuthModuleAsyncOptions,
} from './auth/s2sp-auth.module';
export { type AuthProviderOptions } from './auth/auth-seams';
export { s2spLimitsFromEnv } from './config/limits-from-env';
export { allowedHostsFromEnv } from './config/allowed-hosts-from-env';
export { protectedResourceFromEnv } from './config/protected-resource-from-env';
export { RequestHostPolicy, type AllowedHost, type AllowList } from '@s2sp/platform';
export { type DataPlaneAuthPolicy } from './auth/data-plane-auth-policy';
export { dataPlaneAuthFromEnv } from './config/data-plane-auth-from-env';
export { storable } from './audit/storable-text';
export { mcpHttpLimitsFromEnv, type McpHttpLimits } from './bootstrap/mcp-http-limits';
export * from './mcp-surfaces/mcp-session-broadcaster';
export * from './mcp-surfaces/mcp-resource-directory';
export {
  type McpCompletionRequest,
  type McpCompletionSource,
  MCP_COMPLETION_SOURCE,
} from './mcp-surfaces/mcp-completion-source';
export {
  S2spMcpStrategy,
  type McpSurfaces,
  type McpStrategyOptions,
  type McpSessionSeed,
} from './mcp-surfaces/s2sp-mcp-strategy';
export * from './mcp-surfaces/prompt-arguments';
export { mcpParamHeaders } from './mcp-surfaces/mcp-param-headers';
export {
  runAsTask,
  MCP_TASKS_EXTENSION,
  type McpTasksOptions,
  type McpTaskContext,
  type McpTaskWork,
} from './mcp-surfaces/mcp-tasks';
export {
  mcpClientCapabilities,
  mcpServerContext,
  sealRequestState,
  type McpRequestStateOptions,
} from './mcp-surfaces/mcp-request-context';
export { consumerState, sealConsumerState } from './consumer/consumer-continuation';
export * from './mcp-surfaces/mcp-protocol-error.filter';
export { ResourceActivityController } from './activity/resource-activity.controller';
export { TableSelection } from './data-plane/table-selection';
