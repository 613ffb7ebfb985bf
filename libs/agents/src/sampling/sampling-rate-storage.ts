/**
 * Token of the @nestjs/throttler `ThrottlerStorage` that counts each MCP
 * server's sampling requests per minute: in the process with one replica, in
 * Redis when the replicas share one (REDIS_URL), so that the limit holds for
 * the deployment, not for each replica.
 */
export const SAMPLING_RATE_STORAGE = Symbol('S2SP_AGENTS_SAMPLING_RATE_STORAGE');

/** The throttler name the sampling counters are kept under (apart from the gateway's rate limits). */
export const SAMPLING_THROTTLER_NAME = 'sampling';
