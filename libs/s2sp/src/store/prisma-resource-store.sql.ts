// The statements of PrismaResourceStore (./prisma-resource-store.ts), on the
// database driver: tables and claims move megabytes or must be one statement.

/**
 * Makes the commit of the transaction it runs in return without waiting for
 * PostgreSQL to flush its write-ahead log to disk (which cost 4–5 ms per
 * commit on our CI machines, more than encoding a thousand-row table). The
 * resource is committed and visible to every replica before the answer; a
 * crash of this process cannot lose it, a crash of PostgreSQL itself within
 * `wal_writer_delay` (200 ms by default) can, and its resource_url then
 * answers 404 like an expired one. Used only for what an answer waits for:
 * claims keep the synchronous commit (single use must survive a PostgreSQL
 * crash too), and so do tables written after the answer (their log then does
 * not have to be flushed by the next claim's commit).
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

export const CLAIM = `
  UPDATE s2sp_resource SET consumed_at = $2
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2
  RETURNING id, tool_name, columns, abstract_domains, body_domains, row_count, caller,
            caller_scopes, required_scopes, consumer, created_at, expires_at`;

/** A claim that must read the table: only once the table is completely stored. */
export const CLAIM_STORED = `
  UPDATE s2sp_resource SET consumed_at = $2
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2 AND table_length IS NOT NULL
  RETURNING id, tool_name, columns, abstract_domains, body_domains, row_count, caller,
            caller_scopes, required_scopes, consumer, created_at, expires_at`;

export const UNCLAIMED_RESOURCE = `
  SELECT table_length IS NULL AS being_written FROM s2sp_resource
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2`;

export const DELETE_RESOURCE = 'DELETE FROM s2sp_resource WHERE id = $1::uuid';

export const READ_CHUNKS = 'SELECT data FROM s2sp_resource_chunk WHERE resource_id = $1::uuid ORDER BY seq';

/** A claimed resource row as the claim statement returns it. */
export interface ClaimedRow {
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
