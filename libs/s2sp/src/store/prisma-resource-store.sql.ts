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

/**
 * Rows committed ahead of their use (see ./resource-reservations.ts): $1 ids, $2 token hashes, all
 * reserved at $3 until $4. No answer waits for this commit, so it waits for the log flush.
 */
export const RESERVE_RESOURCES = `
  INSERT INTO s2sp_resource (id, token_hash, tool_name, columns, abstract_domains, body_domains, row_count,
                             created_at, expires_at, reserved)
  SELECT id, token_hash, '', '[]', '[]', '[]', 0, $3, $4, true
  FROM unnest($1::uuid[], $2::text[]) AS reservation(id, token_hash)`;

/** Reservations this process will not use (it is stopping): no one else knows their tokens. */
export const RELEASE_RESERVATIONS = 'DELETE FROM s2sp_resource WHERE id = ANY($1::uuid[]) AND reserved';

/** The metadata columns a reserved row is given when its resource is issued, from $3 on ({@link INSERT_RESOURCE}'s order). */
const ISSUED_METADATA = `tool_name = $3, columns = $4::jsonb, abstract_domains = $5::jsonb, body_domains = $6::jsonb,
      row_count = $7, caller = $8, caller_scopes = $9::jsonb, required_scopes = $10::jsonb, consumer = $11,
      created_at = $12::timestamptz, expires_at = $13::timestamptz, reserved = false`;

/**
 * Reserved rows become their issued resources, in one statement however many: $1 is a JSON array of
 * {@link ReservedRowFill} (metadata, table length and, when not null, the table's only block), $2
 * their ids. Returns the ids of the rows filled; a row no longer reserved is not.
 * The ids in `ANY($2)` let the planner find the rows by primary key: it cannot see how few rows
 * the JSON holds (it assumes a hundred), and joined on it alone it scanned the whole table once
 * per statement, a cost that grew with every resource stored.
 */
export const FILL_RESERVED = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS input(
      id uuid, token_hash text, tool_name text, columns jsonb, abstract_domains jsonb, body_domains jsonb,
      row_count int, caller text, caller_scopes jsonb, required_scopes jsonb, consumer text,
      created_at timestamptz, expires_at timestamptz, table_length int, block text)
  ), resource AS (
    UPDATE s2sp_resource AS stored
    SET tool_name = input.tool_name, columns = input.columns, abstract_domains = input.abstract_domains,
        body_domains = input.body_domains, row_count = input.row_count, caller = input.caller,
        caller_scopes = input.caller_scopes, required_scopes = input.required_scopes, consumer = input.consumer,
        created_at = input.created_at, expires_at = input.expires_at, table_length = input.table_length,
        reserved = false
    FROM input
    WHERE stored.id = ANY($2::uuid[]) AND stored.id = input.id AND stored.token_hash = input.token_hash
      AND stored.reserved
    RETURNING stored.id
  ), block AS (
    INSERT INTO s2sp_resource_chunk (resource_id, seq, data)
    SELECT input.id, 0, input.block FROM input JOIN resource ON resource.id = input.id WHERE input.block IS NOT NULL
  )
  SELECT id FROM resource`;

/** One resource of {@link FILL_RESERVED}'s input: its metadata as JSON values, its table's length and only block. */
export interface ReservedRowFill {
  id: string;
  token_hash: string;
  tool_name: string;
  columns: string[];
  abstract_domains: string[];
  body_domains: string[];
  row_count: number;
  caller: string | null;
  caller_scopes: string[] | null;
  required_scopes: string[];
  consumer: string | null;
  created_at: Date;
  expires_at: Date;
  table_length: number | null;
  block: string | null;
}

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
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2 AND NOT reserved
        ${storedTableOnly ? 'AND table_length IS NOT NULL' : ''}
  RETURNING ${RESOURCE_COLUMNS}`;
}

/**
 * The claim of a resource issued on a reserved row, in the issuing process, whether or not its row
 * was filled yet: it writes the metadata ($1–$13, {@link INSERT_RESOURCE}'s order) with the claim at $14.
 */
export function claimIssuedReservationStatement({ durable }: { durable: boolean }): string {
  return `
  UPDATE s2sp_resource SET ${ISSUED_METADATA}, consumed_at = $14
  ${durable ? '' : `FROM (SELECT ${ASYNC_COMMIT}) AS async_commit`}
  WHERE id = $1::uuid AND token_hash = $2 AND consumed_at IS NULL AND $13::timestamptz > $14::timestamptz
  RETURNING ${RESOURCE_COLUMNS}`;
}

/**
 * A resource that can still be claimed (its table may still be being written). A reserved row is
 * returned too, flagged: its resource was issued, or is about to be, and is not written yet.
 */
export const LIVE_RESOURCE = `
  SELECT ${RESOURCE_COLUMNS}, reserved FROM s2sp_resource
  WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2`;

/** The chunks of resources claimed since the last sweep: nobody reads them again. */
export const DELETE_CLAIMED_CHUNKS = `
  DELETE FROM s2sp_resource_chunk
  WHERE resource_id IN (SELECT id FROM s2sp_resource WHERE consumed_at IS NOT NULL)`;

/**
 * Resources whose lifetime ended, with their chunks (the foreign key cascades), and reservations
 * that ended unused; returns how many resources (reservations are not counted).
 */
export const DELETE_EXPIRED = `
  WITH gone AS (DELETE FROM s2sp_resource WHERE expires_at <= $1 RETURNING reserved)
  SELECT (count(*) FILTER (WHERE NOT reserved))::int AS count FROM gone`;

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
