import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import type { SqlChannel, SqlQuery } from '@s2sp/platform';
import { isDatabaseUnavailable, type SqlDatabase } from '@s2sp/platform/internal';
import { ResourceTable } from './resource-table';
import { ResourceTableNotStoredError } from './resource-table-not-stored.error';
import {
  ASYNC_COMMIT,
  claimIssuedReservationStatement,
  claimStatement,
  DELETE_CLAIMED_CHUNKS,
  DELETE_EXPIRED,
  DELETE_RESOURCE,
  INSERT_CHUNK,
  INSERT_RESOURCE,
  INSERT_RESOURCE_WITH_BLOCK,
  LIVE_RESOURCE,
  READ_CHUNKS,
  SET_TABLE_LENGTH,
  UNCLAIMED_RESOURCE,
  type ReservedRowFill,
  type ResourceRow,
} from './prisma-resource-store.sql';
import { ResourceTableCache, type CachedResource } from './resource-table-cache';
import type {
  CachedResourceInfo,
  ClaimedResource,
  NewCachedResource,
  ReservedResourceToken,
  ResourceStore,
} from './resource-store.interface';
import { newResourceInfo } from './new-resource-info';
import { ResourceReservations } from './resource-reservations';
import { fillRows, ReservedRowFills } from './reserved-row-fills';

/**
 * When `save` resolves: `before-answer` once the resource and its table are
 * committed to the database (it survives a crash of this process from then on;
 * see ASYNC_COMMIT in ./prisma-resource-store.sql.ts for a crash of PostgreSQL); `after-answer` once the
 * resource's row is committed, the table being encoded and written in the
 * background. The row was usually committed ahead, reserved
 * (`reservations`, ./resource-reservations.ts): `save` then waits for no
 * statement at all, and the resource's metadata is written with its table, a
 * table of at most 64 rows (one stored block) in one statement shared with the
 * other such writes of the next few milliseconds (./reserved-row-fills.ts). Without a
 * reservation ready, the row is inserted first, a table of one block with it
 * as `before-answer` does. Until the write, a claim in this process is served from memory
 * (and the write given up), and another replica's claim waits (up to
 * `tableWaitMs`) for the table to be stored; a crash of this process loses
 * the table; a write that meets an unreachable database is tried again until
 * the table is stored, claimed or expired, or the process shuts down; any other
 * failed write is logged and deletes the resource, whose resource_url then
 * answers 404.
 * @public
 */
export type ResourceWriteMode = 'before-answer' | 'after-answer';

/**
 * When a claim (the single-use gate) returns: `fast` once PostgreSQL has
 * committed it, visible to every replica, without waiting for its log to
 * reach the disk: a crash of PostgreSQL itself within `wal_writer_delay`
 * (200 ms by default) can undo it, and the resource_url then answers one more
 * fetch until it expires. `durable` once the log is on disk too (0.5–0.7 ms
 * more per fetch on our development VM). A crash of the serving process undoes neither.
 * @public
 */
export type ResourceClaimCommit = 'fast' | 'durable';

/** @public */
export interface PrismaResourceStoreOptions {
  /**
   * Budget of the in-memory copy of issued tables, in encoded length (≈ bytes of JSON). A table of
   * one block is held as that text once written; larger ones as row objects, several times that
   * in the heap. Default 64 MiB; 0 disables it.
   */
  cacheMaxBytes?: number;
  /** Default `after-answer`. */
  writeMode?: ResourceWriteMode;
  /** Default `fast`. */
  claimCommit?: ResourceClaimCommit;
  /**
   * How long a claim waits for a table another process is still writing
   * (`after-answer`) before failing with {@link ResourceTableNotStoredError}. Default 15 s.
   */
  tableWaitMs?: number;
  /**
   * `after-answer`: how long after the answer the table's write starts. A consumer usually fetches
   * straight away from the issuing process, which serves the table from memory and gives the write
   * up: a fetch within this delay meets no write at all (none is made), instead of competing with
   * one for the CPU and the database. The price: another replica, and a crash, wait this much
   * longer for the stored table. Default 25 ms; 0 starts it on the next turn of the event loop.
   */
  writeDelayMs?: number;
  /**
   * `after-answer`: how many resource rows are committed ahead of their use, in one statement
   * (./resource-reservations.ts), so that issuing a resource waits for no database round trip; a
   * new batch is reserved when half are used. Default 128; 0 inserts each resource's row before
   * its answer. Ignored with `tablesInProcessOnly` and `before-answer`.
   */
  reservations?: number;
  /**
   * For a database no other process can reach (an in-memory PGlite, e.g. `dataDir: ':memory:'`):
   * tables are not written to it but kept in this process until claimed or swept, outside the
   * cache budget (their TTL bounds them); only the resource rows, the single-use gate, go to the
   * database. Writing megabytes into PGlite would block this process's event loop. Default false.
   */
  tablesInProcessOnly?: boolean;
}

export const DEFAULT_RESOURCE_TABLE_WAIT_MS = 15_000;
export const DEFAULT_RESOURCE_RESERVATIONS = 128;
export const DEFAULT_RESOURCE_WRITE_DELAY_MS = 25;
/** First pause between looks at a table still being written; doubles up to the maximum. */
const TABLE_POLL_FIRST_MS = 10;
const TABLE_POLL_MAX_MS = 200;
/** First pause before writing again a table whose write met an unreachable database; doubles up to the maximum. */
const WRITE_RETRY_FIRST_MS = 100;
const WRITE_RETRY_MAX_MS = 2_000;

export const DEFAULT_RESOURCE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * ResourceStore on PostgreSQL or PGlite, in the tables of the Prisma schema,
 * every statement on the database's driver ({@link SqlChannel}): tables move
 * megabytes, and a process that serves resources never loads Prisma's query
 * compiler (docs/data-plane-memory.md).
 *
 * A resource is one `s2sp_resource` row plus its encoded table in ordered
 * `s2sp_resource_chunk` rows. Claiming it is one conditional update of the
 * resource row, so single use holds across every process sharing the database.
 * The issuing process keeps the table in a bounded cache, so the usual fetch
 * reads no chunk; after a restart, or on another replica, the chunks are read.
 * @public
 */
export class PrismaResourceStore implements ResourceStore, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('S2spResourceStore');
  private readonly sql: SqlChannel;
  private readonly cache: ResourceTableCache;
  private readonly writeMode: ResourceWriteMode;
  private readonly tableWaitMs: number;
  private readonly writeDelayMs: number;
  private readonly claimSql: { any: string; storedTableOnly: string; issuedReservation: string };
  private readonly reservations: ResourceReservations | undefined;
  /** The writes after the answer of resources issued on reserved rows with at most one block, several per statement. */
  private readonly reservedRowFills: ReservedRowFills;
  /** Resources answered before their write finished (`after-answer`), by token hash. */
  private readonly pendingWrites = new Map<string, PendingWrite>();
  /** Set on shutdown: a write waiting for the database to come back fails instead. */
  private closing = false;
  /** With `tablesInProcessOnly`: every live table, by token hash. */
  private readonly processTables: Map<string, CachedResource> | undefined;

  constructor(database: Pick<SqlDatabase, 'sql'>, options: PrismaResourceStoreOptions = {}) {
    this.sql = database.sql;
    this.cache = new ResourceTableCache(options.cacheMaxBytes ?? DEFAULT_RESOURCE_CACHE_BYTES);
    this.writeMode = options.writeMode ?? 'after-answer';
    this.tableWaitMs = options.tableWaitMs ?? DEFAULT_RESOURCE_TABLE_WAIT_MS;
    this.writeDelayMs = options.writeDelayMs ?? DEFAULT_RESOURCE_WRITE_DELAY_MS;
    this.processTables = options.tablesInProcessOnly ? new Map() : undefined;
    const durable = (options.claimCommit ?? 'fast') === 'durable';
    this.claimSql = {
      any: claimStatement({ storedTableOnly: false, durable }),
      storedTableOnly: claimStatement({ storedTableOnly: true, durable }),
      issuedReservation: claimIssuedReservationStatement({ durable }),
    };
    const reservations = options.reservations ?? DEFAULT_RESOURCE_RESERVATIONS;
    if (!Number.isSafeInteger(reservations) || reservations < 0)
      throw new Error('PrismaResourceStore: reservations must be a non-negative integer.');
    const reserves = reservations > 0 && this.writeMode === 'after-answer' && !this.processTables;
    this.reservations = reserves ? new ResourceReservations(this.sql, reservations) : undefined;
    this.reservedRowFills = new ReservedRowFills(this.sql, this.writeDelayMs);
  }

  /** Reserves the first batch of resource rows while the app starts, so that the first answer waits for none either. */
  async onApplicationBootstrap(): Promise<void> {
    await this.reservations?.refill();
  }

  /** A token whose row is committed already (`reservations`), or undefined when none is ready or reservations are off. */
  reserveToken(): ReservedResourceToken | undefined {
    return this.reservations?.take();
  }

  async save(resource: NewCachedResource): Promise<CachedResourceInfo> {
    const reservedId = this.reservations?.use(resource.tokenHash);
    const info = newResourceInfo(resource, reservedId);
    const cached: CachedResource = { info, table: resource.table };
    if (this.processTables) {
      // A table_length of 0 with no chunk: the row says its table is complete, and no one else reads it.
      await this.sql.query(INSERT_RESOURCE_WITH_BLOCK, [...resourceRow(resource.tokenHash, info), 0, null]);
      this.processTables.set(resource.tokenHash, cached);
      return info;
    }
    // A table of one block goes in with its resource row in one statement, even `after-answer`: one
    // round trip instead of the row's and then a transaction of the table's, and encoding a few rows
    // delays the answer by next to nothing.
    if (reservedId === undefined && (this.writeMode === 'before-answer' || resource.table.fitsOneBlock)) {
      await this.writeWhole(resource.tokenHash, cached);
      this.cacheWritten(resource.tokenHash, cached);
      return info;
    }
    // The row goes first (unless it was reserved), so that every replica knows the resource_url and waits for its table.
    if (reservedId === undefined) {
      await this.sql.query(INSERT_RESOURCE_WITH_BLOCK, [...resourceRow(resource.tokenHash, info), null, null]);
    }
    const pending: PendingWrite = {
      tokenHash: resource.tokenHash,
      info,
      table: resource.table,
      reserved: reservedId !== undefined,
      claimed: false,
      written: Promise.resolve(),
      startNow: () => undefined,
    };
    // Encoding starts once the answer is on its way, after writeDelayMs (at once on shutdown). A table
    // of one block on a reserved row is encoded at once and its fill waits instead, sharing one
    // statement with every other such fill of those writeDelayMs.
    const gathered = pending.reserved && resource.table.fitsOneBlock;
    pending.written = writeDelay(pending, gathered ? 0 : this.writeDelayMs)
      .then(() => this.writeTableUnlessClaimed(pending))
      .then(
        (stored) => {
          if (stored && !pending.claimed) this.cacheWritten(resource.tokenHash, cached);
        },
        (error: unknown) => this.forget(info, error),
      );
    this.pendingWrites.set(resource.tokenHash, pending);
    void pending.written.finally(() => this.pendingWrites.delete(resource.tokenHash));
    return info;
  }

  async findLive(tokenHash: string, now: Date = new Date()): Promise<CachedResourceInfo | null> {
    // Consumption elsewhere is not visible here; the claim, which asks the database, decides.
    const local =
      this.processTables?.get(tokenHash)?.info ??
      this.pendingWrites.get(tokenHash)?.info ??
      this.cache.peekInfo(tokenHash);
    if (local !== undefined) return local.expiresAt > now ? local : null;
    // A reserved row's resource was issued by another process, which has not written it yet.
    const resource = await this.waitForWrite(async () => {
      const [row] = await this.sql.query<ResourceRow & { reserved: boolean }>(LIVE_RESOURCE, [tokenHash, now]);
      return row?.reserved ? NOT_WRITTEN : row;
    });
    return resource ? toInfo(resource) : null;
  }

  async claim(tokenHash: string, now: Date = new Date()): Promise<ClaimedResource | null> {
    if (this.processTables) return this.claimProcessTable(this.processTables, tokenHash, now);
    // A table this process holds (still being written, or cached) is served from memory without waiting.
    const pending = this.pendingWrites.get(tokenHash);
    if (pending?.reserved) return this.claimIssuedReservation(pending, now);
    const inMemory = pending?.table ?? this.cache.take(tokenHash)?.table;
    const claimed =
      inMemory !== undefined ? await this.claimRow(tokenHash, now) : await this.claimStoredTable(tokenHash, now);
    if (!claimed) return null;
    if (pending) pending.claimed = true; // its write stops: nobody will read the stored table
    const info = toInfo(claimed);
    if (inMemory !== undefined) return { info, table: inMemory };
    const chunks = await this.sql.query<{ data: string }>(READ_CHUNKS, [info.id]);
    return {
      info,
      table: ResourceTable.decode(
        chunks.map((chunk) => chunk.data),
        info.rowCount,
      ),
    };
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    this.cache.deleteExpired(now);
    for (const [tokenHash, held] of this.processTables ?? []) {
      if (held.info.expiresAt <= now) this.processTables?.delete(tokenHash);
    }
    return this.sql.transaction(async (sql) => {
      await sql.query(DELETE_CLAIMED_CHUNKS);
      const [expired] = await sql.query<{ count: number }>(DELETE_EXPIRED, [now]);
      return expired?.count ?? 0;
    });
  }

  /** Starts the delayed background writes and waits for them, so that a graceful shutdown loses no issued resource. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.reservedRowFills.drain();
    for (const pending of this.pendingWrites.values()) pending.startNow();
    await this.writesSettled();
    await this.reservations?.release();
  }

  /** Resolves once every background write started so far (`after-answer`) has ended, stored or failed. */
  async writesSettled(): Promise<void> {
    await Promise.all([...this.pendingWrites.values()].map((pending) => pending.written));
  }

  /** Bytes (encoded length) and tables held in memory, for health and tests. */
  cacheUsage(): { bytes: number; tables: number } {
    return { bytes: this.cache.usedLength, tables: this.cache.count };
  }

  /** Keeps a resource whose table is stored, by its text when it is one block (ResourceTable.compact). */
  private cacheWritten(tokenHash: string, { info, table }: CachedResource): void {
    this.cache.set(tokenHash, { info, table: table.compact() });
  }

  /**
   * Nobody sees the resource before its whole table is stored (another replica
   * may be asked for it as soon as the answer is out), and a failure leaves
   * nothing behind: a table of one block goes in with its resource row in one
   * statement; a larger one in one transaction, where encoding the next block
   * overlaps the database writing the previous one.
   */
  private async writeWhole(tokenHash: string, { info, table }: CachedResource): Promise<void> {
    const row = resourceRow(tokenHash, info);
    const blocks = encodedBlocks(table);
    if ('single' in blocks) {
      await this.sql.query(INSERT_RESOURCE_WITH_BLOCK, [...row, table.encodedLength, blocks.single]);
      return;
    }
    await this.sql.transaction(async (sql) => {
      // The answer waits for this commit: it does not wait for the log flush too (see ASYNC_COMMIT).
      await sql.query(`SELECT ${ASYNC_COMMIT}`);
      await sql.query(INSERT_RESOURCE, row);
      await this.writeTable(sql, info.id, table, blocks.many);
    });
  }

  /**
   * The write after the answer: the table, and for a reserved row the resource's metadata too (a
   * table of one block in the same statement), stopping when this process claims the resource.
   */
  private async writePending(pending: PendingWrite): Promise<void> {
    const { info, table } = pending;
    const giveUp = (): boolean => pending.claimed;
    if (!pending.reserved) {
      await this.sql.transaction((sql) => this.writeTable(sql, info.id, table, table.encode(), giveUp));
      return;
    }
    const blocks = encodedBlocks(table);
    if ('single' in blocks) {
      const fill = reservedRowFill(pending, table.encodedLength ?? null, blocks.single);
      this.checkFilled(pending, await this.reservedRowFills.fill(fill, () => !pending.claimed));
      return;
    }
    await this.sql.transaction(async (sql) => {
      const filled = await fillRows(sql, [reservedRowFill(pending, null, null)]);
      this.checkFilled(pending, filled.has(info.id));
      await this.writeTable(sql, info.id, table, blocks.many, giveUp);
    });
  }

  /** After a reserved row's fill: it found the row no longer reserved when the claim wrote it itself, or the reservation went. */
  private checkFilled(pending: PendingWrite, filled: boolean): void {
    if (filled) return;
    // The claim wrote the row itself; otherwise the reservation went (deleted, or swept after it ended).
    if (pending.claimed) throw new TableWriteGivenUp();
    throw new Error(`the reserved row of resource ${pending.info.id} is gone`);
  }

  /**
   * Claims, in the issuing process, a resource issued on a reserved row: one statement writes its
   * metadata and consumes it, whether or not the write after the answer filled the row yet (that
   * write is given up from here on).
   */
  private async claimIssuedReservation(pending: PendingWrite, now: Date): Promise<ClaimedResource | null> {
    if (pending.claimed) return null;
    pending.claimed = true;
    let claimed: ResourceRow | undefined;
    try {
      [claimed] = await this.sql.query<ResourceRow>(this.claimSql.issuedReservation, [
        ...resourceRow(pending.tokenHash, pending.info),
        now,
      ]);
    } catch (error) {
      pending.claimed = false; // the write goes on: the resource is not lost to a failed claim
      throw error;
    }
    return claimed ? { info: toInfo(claimed), table: pending.table } : null;
  }

  /**
   * Writes the table's blocks and then its length, which marks it complete,
   * inside the caller's transaction: encoding the next block overlaps the
   * database writing the previous one.
   */
  private async writeTable(
    sql: SqlQuery,
    resourceId: string,
    table: ResourceTable,
    blocks: Iterator<string> = table.encode(),
    giveUp: () => boolean = () => false,
  ): Promise<void> {
    let previous: Promise<unknown> = Promise.resolve();
    let seq = 0;
    try {
      for (let next = blocks.next(); !next.done; next = blocks.next()) {
        await previous;
        if (giveUp()) throw new TableWriteGivenUp();
        previous = sql.query(INSERT_CHUNK, [resourceId, seq++, next.value]);
      }
      await previous;
    } catch (error) {
      await previous.catch(() => undefined); // never leave a statement in flight on a connection being rolled back
      throw error;
    }
    await sql.query(SET_TABLE_LENGTH, [resourceId, table.encodedLength]);
  }

  /**
   * Writes the table of a resource answered `after-answer`; false when it was claimed meanwhile
   * (nothing is stored then). While the database cannot be reached (restarting, cut off) the write
   * is tried again, the table staying in memory, until it is stored, claimed or expired, or this
   * process shuts down: a resource answered before an outage is not lost to it.
   */
  private async writeTableUnlessClaimed(pending: PendingWrite): Promise<boolean> {
    const { info } = pending;
    if (pending.claimed) return false;
    for (let pause = WRITE_RETRY_FIRST_MS; ; pause = Math.min(WRITE_RETRY_MAX_MS, pause * 2)) {
      try {
        // No answer waits for this commit, so it waits for the log flush: the next claim, whose commit
        // must flush the log up to itself, does not have to write this table's megabytes out first.
        await this.writePending(pending);
        return true;
      } catch (error) {
        if (error instanceof TableWriteGivenUp) return false;
        const retry = isDatabaseUnavailable(error) && !this.closing && info.expiresAt.getTime() > Date.now() + pause;
        if (!retry) throw error;
        if (pause === WRITE_RETRY_FIRST_MS) {
          this.logger.warn(
            `The database is unavailable; the table of resource ${info.id} is kept and written once it is back`,
          );
        }
        await delay(pause);
        if (pending.claimed) return false;
      }
    }
  }

  /** After a failed background write: the resource goes, so its resource_url answers 404 everywhere instead of waiting. */
  private async forget(info: CachedResourceInfo, error: unknown): Promise<void> {
    this.logger.error(
      `Could not store the table of resource ${info.id}; its resource_url will answer 404: ${messageOf(error)}`,
    );
    await this.sql.query(DELETE_RESOURCE, [info.id]).catch((deleteError: unknown) => {
      this.logger.error(
        `Could not delete resource ${info.id} after its failed write; it stays unclaimable until it expires: ${messageOf(deleteError)}`,
      );
    });
  }

  private async claimProcessTable(
    tables: Map<string, CachedResource>,
    tokenHash: string,
    now: Date,
  ): Promise<ClaimedResource | null> {
    const claimed = await this.claimRow(tokenHash, now);
    if (!claimed) return null;
    const held = tables.get(tokenHash);
    tables.delete(tokenHash);
    if (!held) throw new Error(`The table of resource ${claimed.id} is not held by this process`);
    return { info: toInfo(claimed), table: held.table };
  }

  /**
   * The conditional update is the single-use gate: concurrent claims serialize
   * on the row lock and only the first still matches. Freeing the stored chunks
   * is left to the next sweep.
   */
  private async claimRow(tokenHash: string, now: Date, storedTableOnly = false): Promise<ResourceRow | undefined> {
    const [claimed] = await this.sql.query<ResourceRow>(
      storedTableOnly ? this.claimSql.storedTableOnly : this.claimSql.any,
      [tokenHash, now],
    );
    return claimed;
  }

  /**
   * Claims a resource whose table must come from the database: one whose table
   * another process is still writing is waited for, unclaimed, and after
   * `tableWaitMs` the claim fails without consuming it.
   */
  private claimStoredTable(tokenHash: string, now: Date): Promise<ResourceRow | undefined> {
    return this.waitForWrite(async () => {
      const claimed = await this.claimRow(tokenHash, now, true);
      if (claimed) return claimed;
      const [unclaimed] = await this.sql.query<{ being_written: boolean }>(UNCLAIMED_RESOURCE, [tokenHash, now]);
      if (!unclaimed) return undefined;
      // Its table was completed between the two statements: claim it now.
      return unclaimed.being_written ? NOT_WRITTEN : ((await this.claimRow(tokenHash, now, true)) ?? NOT_WRITTEN);
    });
  }

  /**
   * Asks `look` again, pausing longer each time, while it answers NOT_WRITTEN (a resource another
   * process issued and is still writing), for at most `tableWaitMs`.
   */
  private async waitForWrite<T>(look: () => Promise<T | typeof NOT_WRITTEN>): Promise<T> {
    const deadline = Date.now() + this.tableWaitMs;
    for (let pause = TABLE_POLL_FIRST_MS; ; pause = Math.min(TABLE_POLL_MAX_MS, pause * 2)) {
      const found = await look();
      if (found !== NOT_WRITTEN) return found;
      if (Date.now() + pause > deadline) throw new ResourceTableNotStoredError(this.tableWaitMs);
      await delay(pause);
    }
  }
}

/**
 * An issued resource's columns, named as in the table and in the order of the statements'
 * parameters $1–$13 (prisma-resource-store.sql.ts), as JSON values.
 */
function issuedColumns(tokenHash: string, info: CachedResourceInfo): Omit<ReservedRowFill, 'table_length' | 'block'> {
  return {
    id: info.id,
    token_hash: tokenHash,
    tool_name: info.toolName,
    columns: info.columns,
    abstract_domains: info.abstractDomains,
    body_domains: info.bodyDomains,
    row_count: info.rowCount,
    caller: info.caller,
    caller_scopes: info.callerScopes,
    required_scopes: info.requiredScopes,
    consumer: info.consumer,
    created_at: info.createdAt,
    expires_at: info.expiresAt,
  };
}

/** {@link issuedColumns} as positional parameters $1–$13: the jsonb columns' lists as JSON text. */
function resourceRow(tokenHash: string, info: CachedResourceInfo): unknown[] {
  return Object.values(issuedColumns(tokenHash, info)).map((value) =>
    Array.isArray(value) ? JSON.stringify(value) : value,
  );
}

/** What FILL_RESERVED (./prisma-resource-store.sql.ts) writes into a resource's reserved row. */
function reservedRowFill(pending: PendingWrite, tableLength: number | null, block: string | null): ReservedRowFill {
  return { ...issuedColumns(pending.tokenHash, pending.info), table_length: tableLength, block };
}

/** Rolls back a table write nobody needs any more. */
class TableWriteGivenUp extends Error {}

/** What {@link PrismaResourceStore.waitForWrite}'s look answers while the resource is still being written elsewhere. */
const NOT_WRITTEN = Symbol('not written');

/** A table's encoded blocks: `single` when there is at most one (null for no rows), else all of them. */
function encodedBlocks(table: ResourceTable): { single: string | null } | { many: Iterator<string> } {
  const blocks = table.encode();
  const first = blocks.next();
  if (first.done) return { single: null };
  const second = blocks.next();
  if (second.done) return { single: first.value };
  return { many: prepend(first.value, prepend(second.value, blocks)) };
}

/** Resolves after `delayMs` (on a later turn of the event loop when 0), or as soon as `pending.startNow` is called. */
function writeDelay(pending: PendingWrite, delayMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (delayMs === 0) {
      const immediate = setImmediate(resolve);
      pending.startNow = () => {
        clearImmediate(immediate);
        resolve();
      };
      return;
    }
    const timer = setTimeout(resolve, delayMs);
    pending.startNow = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

function* prepend<T>(head: T, rest: Iterator<T>): Generator<T> {
  yield head;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}

interface PendingWrite {
  tokenHash: string;
  info: CachedResourceInfo;
  table: ResourceTable;
  /** Issued on a reserved row: the write fills the row's metadata too. */
  reserved: boolean;
  /** Set when this process claimed the resource before its table was stored: the write is then rolled back. */
  claimed: boolean;
  /** Settles when the write ended (the table is then cached, or the write was given up, or the failure was logged); never rejects. */
  written: Promise<void>;
  /** Ends the delay before the write (shutdown). */
  startNow: () => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

function toInfo(resource: ResourceRow): CachedResourceInfo {
  return {
    id: resource.id,
    toolName: resource.tool_name,
    columns: toStringArray(resource.columns, 'columns', resource.id),
    abstractDomains: toStringArray(resource.abstract_domains, 'abstractDomains', resource.id),
    bodyDomains: toStringArray(resource.body_domains, 'bodyDomains', resource.id),
    rowCount: resource.row_count,
    caller: resource.caller,
    callerScopes:
      resource.caller_scopes === null ? null : toStringArray(resource.caller_scopes, 'callerScopes', resource.id),
    requiredScopes: toStringArray(resource.required_scopes, 'requiredScopes', resource.id),
    consumer: resource.consumer,
    createdAt: resource.created_at,
    expiresAt: resource.expires_at,
  };
}

function toStringArray(value: unknown, field: string, resourceId: string): string[] {
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return value;
  throw new Error(`Stored ${field} of resource ${resourceId} is not an array of strings`);
}
