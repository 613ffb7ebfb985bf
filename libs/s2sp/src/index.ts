export * from './s2sp.module';
export * from './config/s2sp-options';
export { S2SP_OPTIONS, S2SP_DATABASE } from './config/s2sp.constants';
export * from './resource/s2sp-resource-tool.decorator';
export * from './resource/resource-publisher.service';
export * from './consumer/s2sp-consumer-tool.decorator';
export * from './consumer/consumer-tool.interceptor';
export * from './consumer/data-plane-client.service';
export * from './data-plane/data-plane-error';
export * from './data-plane/data-plane.service';
export * from './data-plane/expired-resource-sweeper';
export * from './store/resource-store.interface';
export * from './store/prisma-resource-store';
export * from './store/in-memory-resource-store';
export { ResourceTable } from './store/resource-table';
export * from './store/resource-table-not-stored.error';
export * from './protocol/row';
export * from './protocol/s2sp-error';
export * from './protocol/s2sp-payload';
export * from './protocol/abstract-domains';
export * from './protocol/abstract-format';
export * from './protocol/columnar-rows';
export * from './protocol/split-rows';
export * from './protocol/merge-rows';
export * from './protocol/consumer-input';
export * from './protocol/resource-token';
export * from './protocol/tool-result';
export * from './bootstrap/serve-mcp';
export * from './bootstrap/stderr-logger';
export * from './protocol/s2sp-meta';
export * from './protocol/token-count';
export * from './consumer/data-plane-credentials.service';
export * from './audit/prisma-audit-sink';
export * from './audit/audit-retention';
export * from './audit/data-plane-fetch-audit';
export * from './audit/prisma-data-plane-fetch-audit';
export * from './auth/mcp-tool-auth.guard';
export * from './auth/s2sp-tool-auth.guard';
export * from './auth/s2sp-auth.module';
export * from './auth/auth-seams';
export * from './config/limits-from-env';
export * from './config/allowed-hosts-from-env';
export { defaultAllowedHosts, RequestHostPolicy, type AllowedHost, type AllowList } from '@s2sp/platform';
export * from './data-plane/arrow/arrow-media-type';
export * from './data-plane/arrow/arrow-errors';
export {
  encodeArrowStream,
  encodeArrowSlices,
  DEFAULT_ARROW_BATCH_ROWS,
  type ArrowStreamEncodeOptions,
  type CellSliceReader,
} from './data-plane/arrow/encode-arrow-stream';
export {
  decodeArrowStream,
  type ArrowStreamDecodeOptions,
  type DecodedArrowTable,
} from './data-plane/arrow/decode-arrow-stream';
export * from './auth/data-plane-auth-policy';
export * from './config/data-plane-auth-from-env';
export * from './audit/audit-health';
export * from './audit/storable-text';
export * from './bootstrap/mcp-http-limits';
export * from './bootstrap/mcp-server-health';
export * from './mcp-surfaces/mcp-session-broadcaster';
export * from './mcp-surfaces/mcp-resource-directory';
export * from './mcp-surfaces/mcp-completion-source';
export { S2spMcpStrategy, type McpSurfaces } from './mcp-surfaces/s2sp-mcp-strategy';
export * from './mcp-surfaces/prompt-arguments';
export * from './mcp-surfaces/mcp-protocol-error.filter';
export * from './activity/resource-activity.controller';
export * from './activity/resource-activity-summary';
