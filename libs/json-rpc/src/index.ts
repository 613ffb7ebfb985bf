export { type JsonRpcId, type JsonRpcErrorObject } from './json-rpc.types';
export { JsonRpcErrorCode } from './json-rpc-error-codes';
export { RECOVERY_HINT, type RecoveryHintValue } from './recovery-hint';
export * from './json-rpc-error';
export { type JsonRpcStreamEvent, JsonRpcEventStream } from './json-rpc-event-stream';
export { type JsonRpcCaller, type JsonRpcCallContext } from './json-rpc-call-context';
export {
  JsonRpcMethod,
  type PositionalParams,
  type JsonSchemaObject,
  type JsonRpcMethodOptions,
  type JsonRpcMethodMetadata,
} from './json-rpc-method.decorator';
export {
  type JsonRpcModuleOptions,
  type ResolvedJsonRpcModuleOptions,
  type JsonRpcModuleAsyncOptions,
  JSON_RPC_MODULE_OPTIONS,
  DEFAULT_JSON_RPC_OPTIONS,
} from './json-rpc-module-options';
export * from './json-rpc.module';
export { JsonRpcAuthGuard } from './json-rpc-auth.guard';
export * from './json-rpc-method-registry';
export * from './grpc-status-to-json-rpc';
export * from './to-json-rpc-error';
export * from './openrpc/json-schema';
export { JsonSchemaProperty } from './openrpc/json-schema-property.decorator';
export {
  type OpenRpcInfo,
  type OpenRpcContentDescriptor,
  type OpenRpcMethod,
  type OpenRpcDocument,
} from './openrpc/openrpc-document';
export { RPC_DISCOVER, RpcDiscoverHandler } from './openrpc/rpc-discover.handler';
