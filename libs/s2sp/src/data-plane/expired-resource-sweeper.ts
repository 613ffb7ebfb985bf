import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { PeriodicSweep } from '@s2sp/platform/internal';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { RESOURCE_STORE, type ResourceStore } from '../store/resource-store.interface';

/**
 * Deletes expired resources on an interval, so cached bodies do not outlive their TTL.
 * @public
 */
@Injectable()
export class ExpiredResourceSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly periodic: PeriodicSweep;

  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Inject(RESOURCE_STORE) store: ResourceStore,
  ) {
    this.periodic = new PeriodicSweep('S2SP resources', () => store.sweepExpired(), new Logger('S2spSweeper'));
  }

  onApplicationBootstrap(): void {
    this.periodic.start(this.options.sweepIntervalMs);
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Runs one sweep now; overlapping calls share the sweep in progress. */
  sweep(): Promise<number> {
    return this.periodic.sweep();
  }
}
