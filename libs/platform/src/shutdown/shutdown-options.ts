import { envInt } from '../env';

/**
 * How a process stops on SIGTERM (see gracefulShutdown and HttpRequestDrain).
 * @public
 */
export interface ShutdownOptions {
  /**
   * Longest time from SIGTERM until the app closes, ms: in-flight calls that
   * have not finished by then are cut off. Keep Kubernetes'
   * terminationGracePeriodSeconds above it (deploy/k8s/).
   */
  graceMs: number;
  /**
   * Time from SIGTERM during which the app already reports not-ready but still
   * serves as usual, ms: load balancers stop sending before it stops accepting.
   * Counted inside graceMs.
   */
  notReadyDelayMs: number;
}

export const SHUTDOWN_ENV = {
  graceMs: 'S2SP_SHUTDOWN_GRACE_MS',
  notReadyDelayMs: 'S2SP_SHUTDOWN_NOT_READY_DELAY_MS',
} as const satisfies Record<keyof ShutdownOptions, string>;

/** @public */
export const DEFAULT_SHUTDOWN_OPTIONS: ShutdownOptions = { graceMs: 10_000, notReadyDelayMs: 0 };

export const SHUTDOWN_LIMITS: Record<keyof ShutdownOptions, { min: number; max: number }> = {
  graceMs: { min: 0, max: 600_000 },
  notReadyDelayMs: { min: 0, max: 600_000 },
};

/**
 * The options given over DEFAULT_SHUTDOWN_OPTIONS; one out of range, or a delay past the grace period, throws naming it.
 * @internal
 */
export function resolveShutdownOptions(options: Partial<ShutdownOptions> = {}): ShutdownOptions {
  const resolved = { ...DEFAULT_SHUTDOWN_OPTIONS };
  for (const key of Object.keys(SHUTDOWN_LIMITS) as Array<keyof ShutdownOptions>) {
    const given = options[key];
    if (given === undefined) continue;
    const { min, max } = SHUTDOWN_LIMITS[key];
    if (!Number.isSafeInteger(given) || given < min || given > max) {
      throw new RangeError(`shutdown option ${key} must be an integer from ${min} to ${max}; got ${String(given)}`);
    }
    resolved[key] = given;
  }
  if (resolved.notReadyDelayMs > resolved.graceMs) {
    throw new RangeError(
      `shutdown option notReadyDelayMs (${resolved.notReadyDelayMs}) must not exceed graceMs (${resolved.graceMs})`,
    );
  }
  return resolved;
}

/**
 * S2SP_SHUTDOWN_GRACE_MS and S2SP_SHUTDOWN_NOT_READY_DELAY_MS (SHUTDOWN_ENV) over
 * DEFAULT_SHUTDOWN_OPTIONS, for an app's configuration to pass as `shutdown`.
 * A value out of range throws, naming the variable.
 * @public
 */
export function shutdownOptionsFromEnv(): ShutdownOptions {
  const options = { ...DEFAULT_SHUTDOWN_OPTIONS };
  for (const key of Object.keys(SHUTDOWN_ENV) as Array<keyof ShutdownOptions>) {
    options[key] = envInt(SHUTDOWN_ENV[key], DEFAULT_SHUTDOWN_OPTIONS[key], SHUTDOWN_LIMITS[key]);
  }
  return resolveShutdownOptions(options);
}
