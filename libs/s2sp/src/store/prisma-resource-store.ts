import { randomUUID } from 'node:crypto';
import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { PrismaClient, S2spDatabase, S2spResource, SqlChannel } from '@s2sp/database';
import { ResourceTable } from './resource-table';
import { ResourceTableCache, type CachedResource } from './resource-table-cache';
import type { CachedResourceInfo, ClaimedResource, NewCachedResource, ResourceStore } from './resource-store.interface';

/**
 * When `save` resolves: `before-answer` once the resource is committed to the
 * database (it survives a crash of this process from then on; see
 * ASYNC_COMMIT below for a crash of PostgreSQL); `after-answer` at once, the table being
 * encoded and written in the background (a crash in that window loses it, a
 * failed write is logged and its resource_url answers 404; a fetch waits for
 * the write before claiming).
 */
export type ResourceWriteMode = 'before-answer' | 'after-answer';

export interface PrismaResourceStoreOptions {
  /**
   * Budget of the in-memory copy of issued tables, in encoded length (≈ bytes of JSON).
   * The rows take several times that as objects in the heap. Default 64 MiB; 0 disables it.
   */
  cacheMaxBytes?: number;
  /** Default `before-answer`. */
  writeMode?: ResourceWriteMode;
}

export const DEFAULT_RESOURCE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * ResourceStore on PostgreSQL or PGlite: metadata reads through the generated
 * Prisma client, tables and claims through the driver ({@link SqlChannel}).
 *
 * A resource is one `s2sp_resource` row plus its encoded table in ordered
 * `s2sp_resource_chunk` rows. Claiming it is one conditional update of the
 * resource row, so single use holds across every process sharing the database.
 * The issuing process keeps the table in a bounded cache, so the usual fetch
 * reads no chunk; after a restart, or on another replica, the chunks are read.
 */
export class PrismaResourceStore implements ResourceStore, BeforeApplicationShutdown {
  private readonly logger = new Logger('S2spResourceStore');
  private readonly prisma: PrismaClient;
  private readonly sql: SqlChannel;
  private readonly cache: ResourceTableCache;
  private readonly writeMode: ResourceWriteMode;
  /** Resources answered before their write finished (`after-answer`), by token hash. */
  private readonly pendingWrites = new Map<string, PendingWrite>();

  constructor(database: Pick<S2spDatabase, 'client' | 'sql'>, options: PrismaResourceStoreOptions = {}) {
    this.prisma = database.client;
    this.sql = database.sql;
    this.cache = new ResourceTableCache(options.cacheMaxBytes ?? DEFAULT_RESOURCE_CACHE_BYTES);
    this.writeMode = options.writeMode ?? 'before-answer';
  }

  async save(resource: NewCachedResource): Promise<CachedResourceInfo> {
    const info: CachedResourceInfo = {
      id: randomUUID(),
      toolName: resource.toolName,
      columns: resource.columns,
      abstractDomains: resource.abstractDomains,
      bodyDomains: resource.bodyDomains,
      rowCount: resource.table.rowCount,
      caller: resource.caller ?? null,
      callerScopes: resource.callerScopes ?? null,
      requiredScopes: resource.requiredScopes ?? [],
      consumer: resource.consumer ?? null,
      createdAt: new Date(),
      expiresAt: resource.expiresAt,
    };
    const cached: CachedResource = { info, table: resource.table };
    if (this.writeMode === 'before-answer') {
      await this.write(resource.tokenHash, cached);
      this.cache.set(resource.tokenHash, cached);
      return info;
    }
    // Encoding starts on a later turn of the event loop, once the answer is on its way.
    const written = afterThisTurn(() => this.write(resource.tokenHash, cached)).then(
      () => this.cache.set(resource.tokenHash, cached),
      (error: unknown) => this.logger.error(`Could not store resource ${info.id}; its resource_url will answer 404: ${messageOf(error)}`),
    );
    this.pendingWrites.set(resource.tokenHash, { info, written });
    void written.finally(() => this.pendingWrites.delete(resource.tokenHash));
    return info;
  }

  async findLive(tokenHash: string, now: Date = new Date()): Promise<CachedResourceInfo | null> {
    // Consumption elsewhere is not visible here; the claim, which asks the database, decides.
    const local = this.pendingWrites.get(tokenHash)?.info ?? this.cache.peekInfo(tokenHash);
    if (local !== undefined) return local.expiresAt > now ? local : null;
    const resource = await this.prisma.s2spResource.findUnique({
      where: { tokenHash, consumedAt: null, expiresAt: { gt: now } },
    });
    return resource ? toInfo(resource) : null;
  }

  async claim(tokenHash: string, now: Date = new Date()): Promise<ClaimedResource | null> {
    await this.pendingWrites.get(tokenHash)?.written;
    const cached = this.cache.take(tokenHash);
    // The conditional update is the single-use gate: concurrent claims serialize on the row lock
    // and only the first still matches. Freeing the stored chunks is left to the next sweep.
    const [claimed] = await this.sql.query<ClaimedRow>(CLAIM, [tokenHash, now]);
    if (!claimed) return null;
    const info = toInfo({
      id: claimed.id,
      toolName: claimed.tool_name,
      columns: claimed.columns,
      abstractDomains: claimed.abstract_domains,
      bodyDomains: claimed.body_domains,
      rowCount: claimed.row_count,
      caller: claimed.caller,
      callerScopes: claimed.caller_scopes,
      requiredScopes: claimed.required_scopes,
      consumer: claimed.consumer,
      createdAt: claimed.created_at,
      expiresAt: claimed.expires_at,
    });
    if (cached !== undefined) return { info, table: cached.table };
    const chunks = await this.sql.query<{ data: string }>(READ_CHUNKS, [info.id]);
    return { info, table: ResourceTable.decode(chunks.map((chunk) => chunk.data), info.rowCount) };
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    this.cache.deleteExpired(now);
    const [, expired] = await this.prisma.$transaction([
      // The chunks of resources claimed since the last sweep.
      this.prisma.s2spResourceChunk.deleteMany({ where: { resource: { consumedAt: { not: null } } } }),
      this.prisma.s2spResource.deleteMany({ where: { expiresAt: { lte: now } } }),
    ]);
    return expired.count;
  }

  /** Waits for background writes, so that a graceful shutdown loses no issued resource. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pendingWrites.values()].map((pending) => pending.written));
  }

  /** Bytes (encoded length) and tables held in memory, for health and tests. */
  cacheUsage(): { bytes: number; tables: number } {
    return { bytes: this.cache.usedLength, tables: this.cache.count };
  }

  /**
   * Nobody sees the resource before its whole table is stored (another replica
   * may be asked for it as soon as the answer is out), and a failure leaves
   * nothing behind: a table of one block goes in with its resource row in one
   * statement; a larger one in one transaction, where encoding the next block
   * overlaps the database writing the previous one.
   */
  private async write(tokenHash: string, { info, table }: CachedResource): Promise<void> {
    const resourceRow = [
      info.id,
      tokenHash,
      info.toolName,
      JSON.stringify(info.columns),
      JSON.stringify(info.abstractDomains),
      JSON.stringify(info.bodyDomains),
      info.rowCount,
      info.caller,
      info.callerScopes === null ? null : JSON.stringify(info.callerScopes),
      JSON.stringify(info.requiredScopes),
      info.consumer,
      info.createdAt,
      info.expiresAt,
    ];
    const blocks = table.encode();
    const first = blocks.next();
    const second = first.done ? first : blocks.next();
    if (second.done) {
      await this.sql.query(INSERT_SMALL_RESOURCE, [...resourceRow, table.encodedLength, first.done ? null : first.value]);
      return;
    }
    await this.sql.transaction(async (sql) => {
      await sql.query(`SELECT ${ASYNC_COMMIT}`);
      await sql.query(INSERT_RESOURCE, resourceRow);
      let previous: Promise<unknown> = sql.query(INSERT_CHUNK, [info.id, 0, first.value]);
      let seq = 1;
      try {
        for (const block of prepend(second.value, blocks)) {
          await previous;
          previous = sql.query(INSERT_CHUNK, [info.id, seq++, block]);
        }
        await previous;
      } catch (error) {
        await previous.catch(() => undefined); // never leave a statement in flight on a connection being rolled back
        throw error;
      }
      await sql.query(SET_TABLE_LENGTH, [info.id, table.encodedLength]);
    });
  }
}

function afterThisTurn<T>(work: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(work);
}

function* prepend<T>(head: T, rest: Iterator<T>): Generator<T> {
  yield head;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}

interface PendingWrite {
  info: CachedResourceInfo;
  /** Settles when the write ended (the table is then cached, or the failure was logged); never rejects. */
  written: Promise<void>;
}

/**
 * Makes the commit of the transaction it runs in return without waiting for
 * PostgreSQL to flush its write-ahead log to disk (which cost 4–5 ms per
 * commit on our CI machines, more than encoding a thousand-row table). The
 * resource is committed and visible to every replica before the answer; a
 * crash of this process cannot lose it, a crash of PostgreSQL itself within
 * `wal_writer_delay` (200 ms by default) can, and its resource_url then
 * answers 404 like an expired one. Claims keep the synchronous commit: single
 * use must survive a PostgreSQL crash too.
 */
const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true)";

const INSERT_RESOURCE = `
  INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                             caller, caller_scopes, required_scopes, consumer, created_at, expires_at)
  VALUES ($1::uuid, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13)`;

/** The resource row and its table's only block (if any: $15 is null for a table without rows) in one statement. */
const INSERT_SMALL_RESOURCE = `
  WITH resource AS (
    INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                               caller, caller_scopes, required_scopes, consumer, created_at, expires_at, table_length)
    SELECT $1::uuid, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14
    FROM (SELECT ${ASYNC_COMMIT}) AS async_commit
    RETURNING id
  )
  INSERT INTO s2sp_resource_chunk (resource_id, seq, data)
  SELECT id, 0, $15::text FROM resource WHERE $15::text IS NOT NULL`;

const INSERT_CHUNK = 'INSERT INTO s2sp_resource_chunk (resource_id, seq, data) VALUES ($1::uuid, $2, $3)';

const SET_TABLE_LENGTH = 'UPDATE s2sp_resource SET table_length = $2 WHERE id = $1::uuid';

const CLAIM = `
  UPDATE s2sp_resource SET consumed_at = $2
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2
  RETURNING id, tool_name, columns, abstract_domains, body_domains, row_count, caller,
            caller_scopes, required_scopes, consumer, created_at, expires_at`;

const READ_CHUNKS = 'SELECT data FROM s2sp_resource_chunk WHERE resource_id = $1::uuid ORDER BY seq';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

/** A claimed resource row as the claim statement returns it. */
interface ClaimedRow {
  id: string;
  tool_name: string;
  columns: unknown;
  abstract_domains: unknown;
  body_domains: unknown;
  row_count: number;
  caller: string | null;
  caller_scopes: unknown;
  required_scopes: unknown;
  consumer: string | null;
  created_at: Date;
  expires_at: Date;
}

type StoredResource = Pick<S2spResource, 'id' | 'toolName' | 'rowCount' | 'caller' | 'consumer' | 'createdAt' | 'expiresAt'> & {
  columns: unknown;
  abstractDomains: unknown;
  bodyDomains: unknown;
  callerScopes: unknown;
  requiredScopes: unknown;
};

function toInfo(resource: StoredResource): CachedResourceInfo {
  return {
    id: resource.id,
    toolName: resource.toolName,
    columns: toStringArray(resource.columns, 'columns', resource.id),
    abstractDomains: toStringArray(resource.abstractDomains, 'abstractDomains', resource.id),
    bodyDomains: toStringArray(resource.bodyDomains, 'bodyDomains', resource.id),
    rowCount: resource.rowCount,
    caller: resource.caller,
    callerScopes: resource.callerScopes === null ? null : toStringArray(resource.callerScopes, 'callerScopes', resource.id),
    requiredScopes: toStringArray(resource.requiredScopes, 'requiredScopes', resource.id),
    consumer: resource.consumer,
    createdAt: resource.createdAt,
    expiresAt: resource.expiresAt,
  };
}

function toStringArray(value: unknown, field: string, resourceId: string): string[] {
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return value;
  throw new Error(`Stored ${field} of resource ${resourceId} is not an array of strings`);
}
