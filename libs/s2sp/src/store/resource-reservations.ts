import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { SqlQuery } from '@s2sp/platform';
import { newResourceTokens } from '../protocol/resource-token';
import { RELEASE_RESERVATIONS, RESERVE_RESOURCES } from './prisma-resource-store.sql';
import type { ReservedResourceToken } from './resource-store.interface';

/** How long a reserved row stays in the database unused before the sweep may delete it. */
const RESERVATION_LIFETIME_MS = 60 * 60_000;
/** A reservation older than this is not handed out: its row must outlive the resource's write. */
const RESERVATION_MAX_AGE_MS = 30 * 60_000;
/** After a failed refill, how long before the next one is tried (meanwhile resources are issued one by one). */
const REFILL_RETRY_MS = 1_000;

interface Reservation {
  id: string;
  token: string;
  tokenHash: string;
  reservedAt: number;
}

/**
 * Resource rows committed ahead of their use, a batch per statement, so that issuing a resource
 * (`resourceWriteMode: 'after-answer'`) waits for no database round trip: its resource_url is
 * already known to every replica, which sees the row as reserved, and waits for it to be written,
 * until the issuing process writes the resource's metadata and table after the answer. The
 * tokens live only in this process's memory: those not handed out when it stops are deleted, or,
 * after a crash, swept once their reservation ends.
 */
export class ResourceReservations {
  private readonly logger = new Logger('S2spResourceStore');
  private readonly ready: Reservation[] = [];
  /** Handed out by {@link take} and not yet used by a save, by token hash. */
  private readonly handedOut = new Map<string, Reservation>();
  private refilling: Promise<void> | undefined;
  private refillNotBefore = 0;
  /** Set by {@link release}: a stopping process reserves nothing more. */
  private released = false;

  constructor(
    private readonly sql: SqlQuery,
    private readonly batchSize: number,
  ) {}

  /** A reserved token, or undefined when none is ready (a refill is then under way). */
  take(now: number = Date.now()): ReservedResourceToken | undefined {
    while (this.ready.length > 0 && now - this.ready[0].reservedAt > RESERVATION_MAX_AGE_MS) this.ready.shift();
    for (const [tokenHash, reservation] of this.handedOut) {
      if (now - reservation.reservedAt <= RESERVATION_MAX_AGE_MS) break;
      this.handedOut.delete(tokenHash);
    }
    const next = this.ready.shift();
    if (this.ready.length <= this.batchSize / 2) void this.refill();
    if (next === undefined) return undefined;
    this.handedOut.set(next.tokenHash, next);
    return { token: next.token, tokenHash: next.tokenHash };
  }

  /** The row id reserved for a token {@link take} handed out, once; undefined for any other token. */
  use(tokenHash: string): string | undefined {
    const reservation = this.handedOut.get(tokenHash);
    this.handedOut.delete(tokenHash);
    return reservation?.id;
  }

  /** Commits a batch of reserved rows unless one is on its way; a failure is logged, and retried by a later take. */
  refill(): Promise<void> {
    if (this.released || this.refilling !== undefined || Date.now() < this.refillNotBefore)
      return this.refilling ?? Promise.resolve();
    this.refilling = this.reserveBatch()
      .catch((error: unknown) => {
        this.refillNotBefore = Date.now() + REFILL_RETRY_MS;
        this.logger.warn(
          `Could not reserve resource rows ahead (${error instanceof Error ? error.message : String(error)}); ` +
            'resources are issued one statement each until it works again',
        );
      })
      .finally(() => {
        this.refilling = undefined;
      });
    return this.refilling;
  }

  /** Deletes the rows of the reservations not handed out; the process is stopping. */
  async release(): Promise<void> {
    this.released = true;
    await this.refilling;
    const unused = this.ready.splice(0);
    if (unused.length === 0) return;
    await this.sql
      .query(RELEASE_RESERVATIONS, [unused.map((reservation) => reservation.id)])
      .catch((error: unknown) => {
        this.logger.warn(
          `Could not delete ${unused.length} unused resource reservations; the sweep deletes them once they end: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  }

  /** Reservations ready to be handed out, for health and tests. */
  get readyCount(): number {
    return this.ready.length;
  }

  private async reserveBatch(): Promise<void> {
    const reservedAt = Date.now();
    const batch = newResourceTokens(this.batchSize).map((token): Reservation => ({
      id: randomUUID(),
      ...token,
      reservedAt,
    }));
    await this.sql.query(RESERVE_RESOURCES, [
      batch.map((reservation) => reservation.id),
      batch.map((reservation) => reservation.tokenHash),
      new Date(reservedAt),
      new Date(reservedAt + RESERVATION_LIFETIME_MS),
    ]);
    this.ready.push(...batch);
  }
}
