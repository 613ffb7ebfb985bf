export { type JsonRpcId, type JsonRpcErrorObject } from './json-rpc.types';
export { RECOVERY_HINT, type RecoveryHintValue } from './recovery-hint';
export * from './json-rpc-error';
export { type JsonRpcCaller, type JsonRpcCallContext } from './json-rpc-call-context';
export {
  JsonRpcMethod,
  type PositionalParams,
  type JsonSchemaObject,
  type JsonRpcMethodOptions,
} from './json-rpc-method.decorator';
export {
  type JsonRpcModuleOptions,
  type JsonRpcModuleAsyncOptions,
  JSON_RPC_MODULE_OPTIONS,
} from './json-rpc-module-options';
export * from './json-rpc.module';
export { JsonRpcAuthGuard } from './json-rpc-auth.guard';
export { grpcStatusToJsonRpc, GRPC_ERROR_METADATA } from './grpc-status-to-json-rpc';
export * from './to-json-rpc-error';
export * from './openrpc/json-schema';
export { JsonSchemaProperty } from './openrpc/json-schema-property.decorator';
export { type OpenRpcInfo } from './openrpc/openrpc-document';
