// @s2sp/json-rpc/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { isGrpcServiceError } from './grpc-status-to-json-rpc';
export { JsonRpcErrorCode } from './json-rpc-error-codes';
export { JsonRpcEventStream, type JsonRpcStreamEvent } from './json-rpc-event-stream';
export { JSON_RPC_CONTEXT_TYPE, JsonRpcMethodRegistry, type RegisteredJsonRpcMethod } from './json-rpc-method-registry';
export { type JsonRpcMethodMetadata } from './json-rpc-method.decorator';
export { DEFAULT_JSON_RPC_OPTIONS, type ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';
export { type OpenRpcContentDescriptor, type OpenRpcDocument, type OpenRpcMethod } from './openrpc/openrpc-document';
export { RPC_DISCOVER, RpcDiscoverHandler } from './openrpc/rpc-discover.handler';
