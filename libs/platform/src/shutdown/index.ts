export * from './shutdown-options';
export * from './readiness';
export * from './http-request-drain';
export * from './graceful-shutdown';
