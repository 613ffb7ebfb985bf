// @s2sp/platform/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { asyncOptionsProviders, configSource } from './async-module-options';
export {
  CircuitBreaker,
  CircuitOpenError,
  type CircuitBreakerOptions,
  type CircuitSnapshot,
  type CircuitStateName,
  timeoutCountsAgainstDownstream,
  validateCircuitBreakerOptions,
} from './circuit-breaker';
export { classOrValue, classOrValueProvider } from './class-or-value-provider';
export { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './database-unavailable';
export { earliestDeadline } from './deadline-budget';
export { envChoice, envOptionalList } from './env';
export { declaredRouteOf, nodeRequestOf, nodeResponseOf, singleHeader, takeNodeResponse } from './http-adapter-objects';
export {
  boundRequestHostPolicy,
  requestHostMiddleware,
  sendHostRefusalJson,
  type HostRefusalWriter,
  type RequestHostPolicyOptions,
} from './http/request-host-middleware';
export { defaultAllowedHosts, isLoopbackAddress, resolveHostAllowLists } from './http/request-host-policy';
export { loadOptionalPackage, OptionalPackageMissingError } from '@s2sp/protocol';
export { packageVersion } from './package-version';
export { PeriodicSweep } from './periodic-sweep';
export { validateRedisOptions } from './redis/redis-options';
export { resolvesWithin } from './resolves-within';
export { S2SP_CONSUMER_PARAMETERS, S2SP_META, S2SP_RESOURCE_PARAMETERS } from '@s2sp/protocol';
export { sharedOptionsModule } from './shared-options-module';
export { shutdownControls, type GracefulShutdownSteps, type ShutdownControls } from './shutdown/graceful-shutdown';
export { HttpRequestDrain } from './shutdown/http-request-drain';
export { Readiness } from './shutdown/readiness';
export { resolveShutdownOptions } from './shutdown/shutdown-options';
export { type SqlDatabase } from './sql-database';
export { leaveRequestBodyUnread } from './unread-request-body';
export { isUuid, uuidV7 } from './uuid';
export { WeightedLruCache } from './weighted-lru-cache';
