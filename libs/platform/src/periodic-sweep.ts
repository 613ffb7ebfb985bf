import type { LoggerService } from '@nestjs/common';

/**
 * A clean-up that runs every `intervalMs` (0 = never) in the background:
 * overlapping runs share the one in progress, a failure is logged and counts
 * as 0, and `stop()` waits for a run in progress so the store is not closed
 * under it.
 * @internal
 */
export class PeriodicSweep {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly what: string,
    private readonly sweepOnce: () => Promise<number>,
    private readonly logger: Pick<LoggerService, 'warn' | 'debug'>,
  ) {}

  /** Starts the interval (unref'd: it never keeps the process alive); `immediately` also sweeps now. */
  start(intervalMs: number, { immediately = false } = {}): void {
    if (intervalMs <= 0) return;
    if (immediately) void this.sweep();
    this.timer = setInterval(() => void this.sweep(), intervalMs);
    this.timer.unref();
  }

  /** One sweep now; resolves to how many items it removed. */
  sweep(): Promise<number> {
    this.running ??= this.sweepOnce()
      .then((count) => {
        if (count > 0) this.logger.debug?.(`swept ${count} expired ${this.what}`);
        return count;
      })
      .catch((error: unknown) => {
        this.logger.warn(
          `Sweeping expired ${this.what} failed: ${error instanceof Error ? error.message : 'unknown error'}`,
        );
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
