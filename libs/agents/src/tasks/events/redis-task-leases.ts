import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SharedRedis } from '@s2sp/platform';
import type { TaskLeases } from './task-leases';

/** Keys read by one MGET. */
const LOOKUP_BATCH = 500;

/**
 * TaskLeases in Redis: `tasks:lease:<task id>` holds the running replica's id
 * and expires after `leaseMs` unless renewed, which this replica does every
 * third of it for the tasks it runs (re-creating a lease lost with Redis).
 */
export class RedisTaskLeases implements TaskLeases, OnModuleDestroy {
  private readonly logger = new Logger('TaskLeases');
  private readonly replicaId = randomUUID();
  private readonly held = new Set<string>();
  private readonly renewal: NodeJS.Timeout;

  constructor(
    private readonly redis: SharedRedis,
    private readonly leaseMs: number,
  ) {
    this.renewal = setInterval(() => void this.renew(), Math.max(1, Math.floor(leaseMs / 3)));
    this.renewal.unref();
  }

  async claim(taskId: string): Promise<void> {
    this.held.add(taskId);
    await this.redis.client.set(this.key(taskId), this.replicaId, 'PX', this.leaseMs);
  }

  async release(taskId: string): Promise<void> {
    this.held.delete(taskId);
    await this.redis.client.del(this.key(taskId));
  }

  async orphaned(taskIds: readonly string[]): Promise<string[]> {
    const orphans: string[] = [];
    for (let start = 0; start < taskIds.length; start += LOOKUP_BATCH) {
      const batch = taskIds.slice(start, start + LOOKUP_BATCH);
      const holders = await this.redis.client.mget(batch.map((taskId) => this.key(taskId)));
      batch.forEach((taskId, index) => {
        if (holders[index] === null) orphans.push(taskId);
      });
    }
    return orphans;
  }

  onModuleDestroy(): void {
    clearInterval(this.renewal);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const pipeline = this.redis.client.pipeline();
    for (const taskId of this.held) pipeline.set(this.key(taskId), this.replicaId, 'PX', this.leaseMs);
    try {
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(
        `Could not renew the leases of ${this.held.size} task(s): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private key(taskId: string): string {
    return this.redis.key('tasks', 'lease', taskId);
  }
}
