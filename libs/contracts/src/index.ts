export * from './json-value';
export * from './proto-path';
export * from './proto-loader-options';
export * from './struct-codec';
export * from './timestamp';
export * from './predicate';
export * from './grpc-error-metadata';
export * from './platform-scopes';
