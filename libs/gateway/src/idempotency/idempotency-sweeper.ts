import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PeriodicSweep } from '@s2sp/platform/internal';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency-store';

/** Deletes expired idempotency records at start and then every sweepIntervalMs (0 = never). */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly periodic: PeriodicSweep;

  constructor(
    @Inject(IDEMPOTENCY_STORE) store: IdempotencyStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.periodic = new PeriodicSweep(
      'idempotency records',
      () => store.sweepExpired(new Date()),
      new Logger('Idempotency'),
    );
  }

  onApplicationBootstrap(): void {
    this.periodic.start(this.config.idempotency.sweepIntervalMs, { immediately: true });
  }

  /** One sweep; concurrent calls share it. Resolves to the number of records deleted. */
  sweep(): Promise<number> {
    return this.periodic.sweep();
  }

  /** Before the database closes (that happens in onApplicationShutdown). */
  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }
}
