import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { RESOURCE_STORE, type ResourceStore } from '../store/resource-store.interface';

/** Deletes expired resources on an interval, so cached bodies do not outlive their TTL. */
@Injectable()
export class ExpiredResourceSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('S2spSweeper');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Inject(RESOURCE_STORE) private readonly store: ResourceStore,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.sweepIntervalMs <= 0) return;
    this.timer = setInterval(() => void this.sweep(), this.options.sweepIntervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Runs one sweep now; overlapping calls share the sweep in progress. */
  sweep(): Promise<number> {
    this.running ??= this.store
      .sweepExpired()
      .catch((error: unknown) => {
        this.logger.warn(`Sweep failed: ${error instanceof Error ? error.message : 'unknown error'}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
