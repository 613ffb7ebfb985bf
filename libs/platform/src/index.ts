export * from './circuit-breaker';
export * from './periodic-sweep';
export * from './http-adapter-objects';
export * from './uuid';
export * from './mulberry32';
export * from './async-module-options';
export * from './env';
export * from './unread-request-body';
