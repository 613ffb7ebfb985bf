export * from './json-value';
export { CONTRACT_VERSION, PACKAGE_CONTRACT_VERSIONS } from './contract-version';
export { PROTO_FILES, PROTO_ROOT } from './proto-path';
export {
  readDescriptorSet,
  DESCRIPTOR_SETS,
  type DescriptorSetName,
  type EncodedFileDescriptor,
} from './descriptor-set';
export { PROTO_LOADER_OPTIONS } from './proto-loader-options';
export { toStruct, fromStruct, type ProtoValue, type ProtoStruct, type ProtoListValue } from './struct-codec';
export { toJsonObject, jsonObjectOr } from './plain-json';
export { toTimestamp, timestampToMs, type ProtoTimestamp } from './timestamp';
export * from './predicate';
export * from './grpc-error-metadata';
export * from './grpc-catalog-metadata';
export * from './platform-scopes';
export * from './recovery-hint';
export * from './agent-execution-error';
export * as v1 from './s2sp-v1';
export * as v2 from './s2sp-v2';
export * from './grpc-package-definition';
