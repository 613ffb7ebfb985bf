import type { ChildProcess } from 'node:child_process';
import { OwnerWatchdog } from './owner-watchdog';

/**
 * How an embedded server that exits without being stopped (a crash, an OOM kill, a `kill -9`)
 * is started again: on the same port and data directory, so every pool reconnects to the URL it
 * already has, after `initialDelayMs`, doubling up to `maxDelayMs`, at most `maxAttempts` times
 * per outage; a start that succeeds ends the outage.
 * @public
 */
export interface EmbeddedPostgresRestartOptions {
  /** Start attempts after one unexpected exit before giving up. Default 5. */
  maxAttempts?: number;
  /** Delay before the first attempt, doubled after each failed one. Default 100 ms. */
  initialDelayMs?: number;
  /** Longest delay between two attempts. Default 2000 ms. */
  maxDelayMs?: number;
}

/**
 * What the supervisor of an embedded server tells (EmbeddedPostgresOptions.onEvent).
 * @public
 */
export type EmbeddedPostgresEvent =
  | { type: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { type: 'restart-failed'; attempt: number; error: Error }
  | { type: 'restarted'; attempt: number; pid: number }
  | { type: 'gave-up'; attempts: number; error: Error };

/** One line saying what happened, for a log. */
export function describeEmbeddedPostgresEvent(event: EmbeddedPostgresEvent): string {
  switch (event.type) {
    case 'exited':
      return `The embedded PostgreSQL server exited unexpectedly (${event.signal ?? `code ${String(event.code)}`}); restarting it`;
    case 'restart-failed':
      return `Restart attempt ${event.attempt} of the embedded PostgreSQL server failed: ${event.error.message}`;
    case 'restarted':
      return `The embedded PostgreSQL server runs again (attempt ${event.attempt}, pid ${event.pid})`;
    case 'gave-up':
      return event.error.message;
  }
}

/** @public */
export type EmbeddedPostgresState = 'running' | 'restarting' | 'stopped' | 'failed';

const DEFAULT_RESTART: Required<EmbeddedPostgresRestartOptions> = {
  maxAttempts: 5,
  initialDelayMs: 100,
  maxDelayMs: 2_000,
};

/** Throws naming the first unusable restart option. */
export function restartPolicy(
  options: EmbeddedPostgresRestartOptions | false | undefined,
): Required<EmbeddedPostgresRestartOptions> {
  if (options === false) return { ...DEFAULT_RESTART, maxAttempts: 0 };
  const policy = { ...DEFAULT_RESTART, ...options };
  for (const [name, min] of [
    ['maxAttempts', 0],
    ['initialDelayMs', 0],
    ['maxDelayMs', 1],
  ] as const) {
    const value = policy[name];
    if (!Number.isSafeInteger(value) || value < min)
      throw new Error(`restart.${name} must be a whole number of at least ${min}; got ${String(value)}`);
  }
  return policy;
}

export interface ServerSupervisorOptions {
  /** Starts the server again (same port and directory); rejects when it could not. */
  launch: () => Promise<ChildProcess>;
  /** Stops a server on purpose. */
  stopServer: (child: ChildProcess) => Promise<void>;
  restart: Required<EmbeddedPostgresRestartOptions>;
  onEvent: (event: EmbeddedPostgresEvent) => void;
  /** Called once the attempts of an outage are used up. */
  onGiveUp: (error: Error) => void;
}

/**
 * Keeps an embedded server running: each server process gets a watchdog (it goes when this
 * process goes), and one that exits while no one stopped it is started again under the policy.
 */
export class ServerSupervisor {
  private child: ChildProcess;
  private watchdog: OwnerWatchdog;
  private currentState: EmbeddedPostgresState = 'running';
  private stopping: Promise<void> | undefined;
  /** A start under way during an outage (stop() waits for it and stops what it started). */
  private launching: Promise<ChildProcess | undefined> | undefined;

  constructor(
    first: ChildProcess,
    private readonly options: ServerSupervisorOptions,
  ) {
    this.child = first;
    this.watchdog = this.watch(first);
  }

  get state(): EmbeddedPostgresState {
    return this.currentState;
  }

  /** Stops the server for good (a restart under way is abandoned); resolves once it is gone. */
  stop(): Promise<void> {
    return (this.stopping ??= (async () => {
      this.currentState = 'stopped';
      this.watchdog.disarm();
      await this.options.stopServer(this.child);
      const late = await this.launching;
      if (late) await this.options.stopServer(late);
    })());
  }

  private watch(child: ChildProcess): OwnerWatchdog {
    const watchdog = new OwnerWatchdog(child.pid as number);
    child.once('exit', (code, signal) => {
      watchdog.disarm(); // its pid may be reused by an unrelated process
      if (this.stopping || child !== this.child) return;
      this.options.onEvent({ type: 'exited', code, signal });
      void this.recover();
    });
    return watchdog;
  }

  private async recover(): Promise<void> {
    this.currentState = 'restarting';
    const { maxAttempts, initialDelayMs, maxDelayMs } = this.options.restart;
    let delayMs = Math.min(initialDelayMs, maxDelayMs);
    let lastError = new Error('the embedded PostgreSQL server exited and restarting it is turned off');
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (this.stopping) return;
      const launching = this.options.launch();
      this.launching = launching.catch(() => undefined);
      try {
        const child = await launching;
        if (this.stopping) return; // stop() stops it
        this.launching = undefined;
        this.child = child;
        this.watchdog = this.watch(child);
        this.currentState = 'running';
        this.options.onEvent({ type: 'restarted', attempt, pid: child.pid as number });
        return;
      } catch (error) {
        lastError = error instanceof Error ? error : new Error(String(error));
        this.options.onEvent({ type: 'restart-failed', attempt, error: lastError });
        delayMs = Math.min(delayMs * 2 || 1, maxDelayMs);
      }
    }
    if (this.stopping) return;
    this.currentState = 'failed';
    const error = new Error(
      `The embedded PostgreSQL server exited and could not be started again after ${maxAttempts} attempt(s): ${lastError.message}`,
      { cause: lastError },
    );
    this.options.onEvent({ type: 'gave-up', attempts: maxAttempts, error });
    this.options.onGiveUp(error);
  }
}
