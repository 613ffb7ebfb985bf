export * from './json-value';
export { CONTRACT_VERSION, PACKAGE_CONTRACT_VERSIONS } from './contract-version';
export { PROTO_FILES } from './proto-path';
export {
  readDescriptorSet,
  DESCRIPTOR_SETS,
  type DescriptorSetName,
  type EncodedFileDescriptor,
} from './descriptor-set';
export { PROTO_LOADER_OPTIONS } from './proto-loader-options';
export { toStruct, fromStruct, type ProtoValue, type ProtoStruct, type ProtoListValue } from './struct-codec';
export { PredicateSyntaxError } from './predicate';
export * from './grpc-error-metadata';
export * from './platform-scopes';
export { RECOVERY_HINT } from './recovery-hint';
export * from './agent-execution-error';
export * as v1 from './s2sp-v1';
export * as v2 from './s2sp-v2';
export * from './grpc-package-definition';
