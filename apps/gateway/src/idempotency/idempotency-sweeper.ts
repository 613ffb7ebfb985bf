import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency-store';

/** Deletes expired idempotency records at start and then every sweepIntervalMs (0 = never). */
@Injectable()
export class IdempotencySweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  onApplicationBootstrap(): void {
    const interval = this.config.idempotency.sweepIntervalMs;
    if (interval === 0) return;
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), interval);
    this.timer.unref();
  }

  /** One sweep; concurrent calls share it. Resolves to the number of records deleted. */
  sweep(): Promise<number> {
    this.running ??= this.store
      .sweepExpired(new Date())
      .then((count) => {
        if (count > 0) this.logger.debug(`swept ${count} expired idempotency record(s)`);
        return count;
      })
      .catch((error: unknown) => {
        this.logger.warn(`sweep failed: ${error instanceof Error ? error.message : String(error)}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /** Before the database closes (that happens in onApplicationShutdown). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
