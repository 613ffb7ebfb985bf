import { randomUUID } from 'node:crypto';
import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { PrismaClient, S2spResource } from '../persistence/generated/client';
import { ResourceTable } from './resource-table';
import { ResourceTableCache } from './resource-table-cache';
import type { CachedResourceInfo, ClaimedResource, NewCachedResource, ResourceStore } from './resource-store.interface';

/**
 * When `save` resolves: `before-answer` once the resource is in the database
 * (it survives a crash from then on); `after-answer` as soon as it is in this
 * process's cache, the database write following in the background (a crash in
 * that window loses it; a fetch waits for the write before claiming).
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
 * ResourceStore on the generated Prisma client (PostgreSQL or PGlite).
 *
 * A resource is one `s2sp_resource` row plus its encoded table in ordered
 * `s2sp_resource_chunk` rows. Claiming it is one conditional update of the
 * resource row, so single use holds across every process sharing the database.
 * The issuing process keeps the table in a bounded cache, so the usual fetch
 * reads no chunk; after a restart, or on another replica, the chunks are read.
 */
export class PrismaResourceStore implements ResourceStore, BeforeApplicationShutdown {
  private readonly logger = new Logger('S2spResourceStore');
  private readonly cache: ResourceTableCache;
  private readonly writeMode: ResourceWriteMode;
  /** Background writes (`after-answer`) still running, by token hash. */
  private readonly pendingWrites = new Map<string, Promise<void>>();

  constructor(
    private readonly prisma: PrismaClient,
    options: PrismaResourceStoreOptions = {},
  ) {
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
    const blocks = resource.table.encodedBlocks();
    const write = this.write(resource.tokenHash, info, resource.table.encodedLength, blocks).finally(() => resource.table.releaseEncoding());
    if (this.writeMode === 'before-answer') {
      await write;
      this.cache.set(resource.tokenHash, { info, table: resource.table });
      return info;
    }
    this.cache.set(resource.tokenHash, { info, table: resource.table });
    const pending = write.catch((error: unknown) => {
      this.cache.delete(resource.tokenHash);
      this.logger.error(`Could not store resource ${info.id}; its resource_url will answer 404: ${messageOf(error)}`);
    });
    this.pendingWrites.set(resource.tokenHash, pending);
    void pending.finally(() => this.pendingWrites.delete(resource.tokenHash));
    return info;
  }

  async findLive(tokenHash: string, now: Date = new Date()): Promise<CachedResourceInfo | null> {
    const cached = this.cache.peekInfo(tokenHash);
    // Consumption elsewhere is not visible here; the claim, which asks the database, decides.
    if (cached !== undefined) return cached.expiresAt > now ? cached : null;
    const resource = await this.prisma.s2spResource.findUnique({
      where: { tokenHash, consumedAt: null, expiresAt: { gt: now } },
    });
    return resource ? toInfo(resource) : null;
  }

  async claim(tokenHash: string, now: Date = new Date()): Promise<ClaimedResource | null> {
    await this.pendingWrites.get(tokenHash);
    const cached = this.cache.take(tokenHash);
    // One statement: the conditional update is the single-use gate (concurrent claims serialize on
    // the row lock and only the first still matches). When this process does not hold the table,
    // the same statement reads and frees its chunks; when it does, freeing them (deleting megabytes
    // of stored text) is left to the next sweep, off the fetch's path.
    const readChunks = cached === undefined;
    const [claimed] = await this.prisma.$queryRaw<ClaimedRow[]>`
      WITH claimed AS (
        UPDATE s2sp_resource SET consumed_at = ${now}
        WHERE token_hash = ${tokenHash} AND consumed_at IS NULL AND expires_at > ${now}
        RETURNING id, tool_name, columns, abstract_domains, body_domains, row_count, caller,
                  caller_scopes, required_scopes, consumer, created_at, expires_at
      ), freed AS (
        DELETE FROM s2sp_resource_chunk WHERE ${readChunks} AND resource_id IN (SELECT id FROM claimed) RETURNING seq, data
      )
      SELECT claimed.*, (SELECT coalesce(array_agg(data ORDER BY seq), '{}') FROM freed) AS chunks
      FROM claimed`;
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
    return { info, table: cached?.table ?? ResourceTable.decode(claimed.chunks, info.rowCount) };
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    this.cache.deleteExpired(now);
    const [, expired] = await this.prisma.$transaction([
      // The chunks of resources claimed from memory since the last sweep.
      this.prisma.s2spResourceChunk.deleteMany({ where: { resource: { consumedAt: { not: null } } } }),
      this.prisma.s2spResource.deleteMany({ where: { expiresAt: { lte: now } } }),
    ]);
    return expired.count;
  }

  /** Waits for background writes, so that a graceful shutdown loses no issued resource. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.pendingWrites.values());
  }

  /** Bytes (encoded length) and tables held in memory, for health and tests. */
  cacheUsage(): { bytes: number; tables: number } {
    return { bytes: this.cache.usedLength, tables: this.cache.count };
  }

  private async write(tokenHash: string, info: CachedResourceInfo, tableLength: number, blocks: readonly string[]): Promise<void> {
    const create = this.prisma.s2spResource.create({
      data: {
        id: info.id,
        tokenHash,
        toolName: info.toolName,
        columns: info.columns,
        abstractDomains: info.abstractDomains,
        bodyDomains: info.bodyDomains,
        rowCount: info.rowCount,
        tableLength,
        caller: info.caller,
        callerScopes: info.callerScopes ?? undefined,
        requiredScopes: info.requiredScopes,
        consumer: info.consumer,
        createdAt: info.createdAt,
        expiresAt: info.expiresAt,
      },
    });
    await create;
    if (blocks.length === 0) return;
    // No transaction (its timeout would bound the table's size): until save resolves nobody
    // knows the token, so a resource row whose chunks are still being written cannot be claimed.
    try {
      // One plain INSERT per chunk: about twice as fast as createMany for megabyte-sized texts.
      for (const [seq, data] of blocks.entries()) {
        await this.prisma.$executeRaw`INSERT INTO s2sp_resource_chunk (resource_id, seq, data) VALUES (${info.id}::uuid, ${seq}, ${data})`;
      }
    } catch (error) {
      await this.prisma.s2spResource.delete({ where: { id: info.id } }).catch(() => undefined);
      throw error;
    }
  }
}

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
  /** The stored table's chunks in order; empty when the claimer holds the table in memory. */
  chunks: string[];
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
