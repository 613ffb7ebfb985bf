// The statements of PrismaResourceStore (./prisma-resource-store.ts), on the
// database driver: tables and claims move megabytes or must be one statement,
// and a process that only serves resources never loads Prisma's query compiler
// (see docs/data-plane-memory.md).

/**
 * Makes the commit of the transaction it runs in return without waiting for
 * PostgreSQL to flush its write-ahead log to disk (which cost 4–5 ms per
 * commit on our CI machines, more than encoding a thousand-row table, and
 * 0.5–0.7 ms of a 100-row fetch on our development VM). What it commits is
 * visible to every replica at once; a crash of this process cannot undo it, a
 * crash of PostgreSQL itself within `wal_writer_delay` (200 ms by default)
 * can. Used only for what an answer waits for: the resource row (undone, its
 * resource_url answers 404 like an expired one) and, unless claims are
 * `durable`, the claim (undone, the resource_url answers one more fetch until
 * it expires). Tables written after the answer keep the synchronous commit:
 * their log then does not have to be flushed by the next claim's commit.
 */
export const ASYNC_COMMIT = "set_config('synchronous_commit', 'off', true)";

export const INSERT_RESOURCE = `
  INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                             caller, caller_scopes, required_scopes, consumer, created_at, expires_at)
  VALUES ($1::uuid, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13)`;

/**
 * The resource row and its table's only block in one statement. $15 is null for
 * a table without rows, and $14 and $15 are both null for a row whose table follows.
 */
export const INSERT_RESOURCE_WITH_BLOCK = `
  WITH resource AS (
    INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                               caller, caller_scopes, required_scopes, consumer, created_at, expires_at, table_length)
    SELECT $1::uuid, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7, $8, $9::jsonb, $10::jsonb, $11, $12, $13, $14
    FROM (SELECT ${ASYNC_COMMIT}) AS async_commit
    RETURNING id
  )
  INSERT INTO s2sp_resource_chunk (resource_id, seq, data)
  SELECT id, 0, $15::text FROM resource WHERE $15::text IS NOT NULL`;

export const INSERT_CHUNK = 'INSERT INTO s2sp_resource_chunk (resource_id, seq, data) VALUES ($1::uuid, $2, $3)';

export const SET_TABLE_LENGTH = 'UPDATE s2sp_resource SET table_length = $2 WHERE id = $1::uuid';

/** The columns of a resource row that make its metadata ({@link ResourceRow}). */
const RESOURCE_COLUMNS = `id, tool_name, columns, abstract_domains, body_domains, row_count, caller,
            caller_scopes, required_scopes, consumer, created_at, expires_at`;

/**
 * The claim: one conditional update, the single-use gate. With
 * `storedTableOnly`, only once the table is completely stored (a claim that
 * must read it). With `durable`, its commit waits for the log flush (see {@link ASYNC_COMMIT}).
 */
export function claimStatement({ storedTableOnly, durable }: { storedTableOnly: boolean; durable: boolean }): string {
  return `
  UPDATE s2sp_resource SET consumed_at = $2
  ${durable ? '' : `FROM (SELECT ${ASYNC_COMMIT}) AS async_commit`}
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2 ${storedTableOnly ? 'AND table_length IS NOT NULL' : ''}
  RETURNING ${RESOURCE_COLUMNS}`;
}

/** A resource that can still be claimed (its table may still be being written). */
export const LIVE_RESOURCE = `
  SELECT ${RESOURCE_COLUMNS} FROM s2sp_resource
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2`;

/** The chunks of resources claimed since the last sweep: nobody reads them again. */
export const DELETE_CLAIMED_CHUNKS = `
  DELETE FROM s2sp_resource_chunk
  WHERE resource_id IN (SELECT id FROM s2sp_resource WHERE consumed_at IS NOT NULL)`;

/** Resources whose lifetime ended, with their chunks (the foreign key cascades); returns how many. */
export const DELETE_EXPIRED = `
  WITH gone AS (DELETE FROM s2sp_resource WHERE expires_at <= $1 RETURNING 1)
  SELECT count(*)::int AS count FROM gone`;

export const UNCLAIMED_RESOURCE = `
  SELECT table_length IS NULL AS being_written FROM s2sp_resource
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2`;

export const DELETE_RESOURCE = 'DELETE FROM s2sp_resource WHERE id = $1::uuid';

export const READ_CHUNKS = 'SELECT data FROM s2sp_resource_chunk WHERE resource_id = $1::uuid ORDER BY seq';

/** A resource row's metadata columns, as the claim and lookup statements return them. */
export interface ResourceRow {
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
