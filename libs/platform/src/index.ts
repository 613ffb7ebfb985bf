export * from './mulberry32';
export { type ModuleOptionsFactory, type AsyncOptionsSource, type AsyncModuleOptions } from './async-module-options';
export { envString, envOptional, envInt, envList, parsePairs, type EnvironmentVariables } from './env';
export { type HttpAdapterLike } from './unread-request-body';
export { budgetUntil, type DeadlineReserve, type DeadlineBudget } from './deadline-budget';
export {
  shutdownOptionsFromEnv,
  type ShutdownOptions,
  DEFAULT_SHUTDOWN_OPTIONS,
  exitOnTerminationSignal,
} from './shutdown';
export { releaseStartupMemory } from './release-startup-memory';
export { redisOptionsFromEnv, type RedisOptions } from './redis/redis-options';
export * from './redis/shared-redis';
export * from './redis/shared-redis.module';
export * from './rate-limit/sliding-window-throttler-storage';
export * from './rate-limit/redis-throttler-storage';
export {
  type AllowedHost,
  type AllowList,
  type HostRefusal,
  type HostPolicySettings,
  RequestHostPolicy,
} from './http/request-host-policy';
export { type SqlQuery, type SqlChannel } from './sql-database';
export { S2SP_RESOURCE_EXTENSION_PARAMETERS } from '@s2sp/protocol';
export { type ThrottlerStorageRecord } from './rate-limit/throttler-storage-record';
