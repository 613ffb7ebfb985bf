export {
  validateCircuitBreakerOptions,
  type CircuitStateName,
  type CircuitBreakerOptions,
  type CircuitSnapshot,
  CircuitOpenError,
  CircuitBreaker,
} from './circuit-breaker';
export * from './periodic-sweep';
export * from './http-adapter-objects';
export * from './uuid';
export * from './mulberry32';
export * from './async-module-options';
export * from './shared-options-module';
export * from './env';
export { leaveRequestBodyUnread, type HttpAdapterLike } from './unread-request-body';
export * from './weighted-lru-cache';
export * from './deadline-budget';
export {
  resolveShutdownOptions,
  shutdownOptionsFromEnv,
  type ShutdownOptions,
  DEFAULT_SHUTDOWN_OPTIONS,
  Readiness,
  HttpRequestDrain,
  shutdownControls,
  exitOnTerminationSignal,
  type GracefulShutdownSteps,
  type ShutdownControls,
} from './shutdown';
export { redisOptionsFromEnv, validateRedisOptions, type RedisOptions } from './redis/redis-options';
export * from './redis/shared-redis';
export * from './redis/shared-redis.module';
export * from './rate-limit/sliding-window-throttler-storage';
export * from './rate-limit/redis-throttler-storage';
export {
  defaultAllowedHosts,
  isLoopbackAddress,
  resolveHostAllowLists,
  type AllowedHost,
  type AllowList,
  type HostRefusal,
  type HostPolicySettings,
  RequestHostPolicy,
} from './http/request-host-policy';
export {
  requestHostMiddleware,
  boundRequestHostPolicy,
  sendHostRefusalJson,
  type HostRefusalWriter,
  type RequestHostPolicyOptions,
} from './http/request-host-middleware';
export * from './optional-package';
export * from './sql-database';
export * from './class-or-value-provider';
export * from './package-version';
export * from './s2sp-wire/s2sp-meta-keys';
export * from './s2sp-wire/s2sp-tool-parameters';
export { type ThrottlerStorageRecord } from './rate-limit/throttler-storage-record';
