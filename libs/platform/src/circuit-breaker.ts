/** @internal */
export type CircuitStateName = 'closed' | 'half-open' | 'open';

/** @internal */
export interface CircuitBreakerOptions {
  /** Sliding window over which the error rate is measured. */
  windowMs: number;
  /** Fewest calls in the window before the rate can open the circuit. */
  minimumCalls: number;
  /** Error rate (0..1) at or above which the circuit opens. */
  errorRateThreshold: number;
  /** How long the circuit stays open before one probe is let through. */
  openDurationMs: number;
  now?: () => number;
}

export const DEFAULT_CIRCUIT_BREAKER_OPTIONS: CircuitBreakerOptions = {
  windowMs: 10_000,
  minimumCalls: 5,
  errorRateThreshold: 0.5,
  openDurationMs: 5_000,
};

/**
 * Throws naming the first unusable option (`<field>.windowMs must …`):
 * whole milliseconds and calls of at least 1, an error rate in (0, 1].
 * @internal
 */
export function validateCircuitBreakerOptions(
  options: Omit<CircuitBreakerOptions, 'now'>,
  field = 'circuitBreaker',
): void {
  for (const name of ['windowMs', 'minimumCalls', 'openDurationMs'] as const) {
    const value = options[name];
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`${field}.${name} must be a whole number of at least 1; got ${value}`);
  }
  const rate = options.errorRateThreshold;
  if (!(rate > 0 && rate <= 1)) throw new Error(`${field}.errorRateThreshold must be in (0, 1]; got ${rate}`);
}

/**
 * Whether a call that ran out of its own time says something about the downstream's health:
 * only when the call had at least `minimumBudgetMs`. A shorter budget is the caller's choice,
 * and counting it would let one caller's short deadlines open the circuit for every caller;
 * nor is it a success: such an outcome is left out of the window (`run`'s isFailure answers undefined).
 * @internal
 */
export function timeoutCountsAgainstDownstream(budgetMs: number, minimumBudgetMs: number): boolean {
  return budgetMs >= minimumBudgetMs;
}

/** @internal */
export interface CircuitSnapshot {
  name: string;
  state: CircuitStateName;
  callsInWindow: number;
  failuresInWindow: number;
  /** Milliseconds until a probe is allowed, while open. */
  retryAfterMs: number;
}

/**
 * Thrown instead of calling a downstream whose circuit is open.
 * @internal
 */
export class CircuitOpenError extends Error {
  constructor(
    readonly circuit: string,
    readonly retryAfterMs: number,
  ) {
    super(`${circuit} is unavailable (circuit open); retry in ${Math.ceil(retryAfterMs / 1000)} s.`);
    this.name = 'CircuitOpenError';
  }
}

/**
 * Per-downstream circuit breaker: opens when the error rate over a sliding
 * window passes a threshold, fast-fails while open, lets a single probe
 * through after the open period (half-open), and closes when it succeeds.
 * @internal
 */
export class CircuitBreaker {
  private readonly options: CircuitBreakerOptions;
  private readonly now: () => number;
  /** Outcomes in the window, oldest first; failures counted alongside so a call costs O(1), not O(window). */
  private outcomes: Array<{ at: number; failed: boolean }> = [];
  /** Index of the oldest outcome still in the window (expired ones are dropped in bulk). */
  private head = 0;
  private failures = 0;
  private currentState: CircuitStateName = 'closed';
  private openedAt = 0;
  private probeInFlight = false;

  constructor(
    readonly name: string,
    options: Partial<CircuitBreakerOptions> = {},
  ) {
    this.options = { ...DEFAULT_CIRCUIT_BREAKER_OPTIONS, ...options };
    validateCircuitBreakerOptions(this.options, `circuit breaker "${name}"`);
    this.now = this.options.now ?? Date.now;
  }

  get state(): CircuitStateName {
    if (this.currentState === 'open' && this.now() - this.openedAt >= this.options.openDurationMs) {
      this.currentState = 'half-open';
    }
    return this.currentState;
  }

  /**
   * Runs `call` unless the circuit is open. `isFailure` decides which errors
   * count against the downstream (a caller's bad request should not: false, the
   * downstream answered); undefined leaves the outcome out of the window (it says
   * nothing either way, e.g. a caller's own short deadline ran out).
   */
  async run<T>(call: () => Promise<T>, isFailure: (error: unknown) => boolean | undefined = () => true): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.probeInFlight)) {
      throw new CircuitOpenError(this.name, this.retryAfterMs());
    }
    const probing = state === 'half-open';
    if (probing) this.probeInFlight = true;
    try {
      const result = await call();
      this.record(false);
      return result;
    } catch (error) {
      const failed = isFailure(error);
      if (failed !== undefined) this.record(failed);
      throw error;
    } finally {
      if (probing) this.probeInFlight = false;
    }
  }

  record(failed: boolean): void {
    const at = this.now();
    if (this.state === 'half-open') {
      if (failed) this.open(at);
      else this.close();
      return;
    }
    this.outcomes.push({ at, failed });
    if (failed) this.failures++;
    this.prune(at);
    if (
      failed &&
      this.currentState === 'closed' &&
      this.callsInWindow() >= this.options.minimumCalls &&
      this.failures / this.callsInWindow() >= this.options.errorRateThreshold
    ) {
      this.open(at);
    }
  }

  snapshot(): CircuitSnapshot {
    const state = this.state;
    this.prune(this.now());
    return {
      name: this.name,
      state,
      callsInWindow: this.callsInWindow(),
      failuresInWindow: this.failures,
      retryAfterMs: state === 'open' ? this.retryAfterMs() : 0,
    };
  }

  private retryAfterMs(): number {
    return Math.max(0, this.openedAt + this.options.openDurationMs - this.now());
  }

  private open(at: number): void {
    this.currentState = 'open';
    this.openedAt = at;
    this.resetWindow();
  }

  private close(): void {
    this.currentState = 'closed';
    this.resetWindow();
  }

  private callsInWindow(): number {
    return this.outcomes.length - this.head;
  }

  private resetWindow(): void {
    this.outcomes = [];
    this.head = 0;
    this.failures = 0;
  }

  private prune(at: number): void {
    const oldest = at - this.options.windowMs;
    while (this.head < this.outcomes.length && this.outcomes[this.head].at < oldest) {
      if (this.outcomes[this.head].failed) this.failures--;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.outcomes.length) {
      this.outcomes = this.outcomes.slice(this.head);
      this.head = 0;
    }
  }
}
