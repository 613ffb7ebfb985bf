import type { SqlQuery } from '@s2sp/platform';

/** What one resource server did for one caller with one tool. */
export interface ResourceActivityRow {
  toolName: string;
  /** The caller's identity (token subject); null for unauthenticated calls. */
  caller: string | null;
  /** Resources on record: issued and not yet swept (see `ExpiredResourceSweeper`). */
  issued: number;
  consumed: number;
  /** Past their expiry without being consumed, still on record until the next sweep. */
  expired: number;
  /** Neither consumed nor expired: still fetchable. */
  live: number;
  /** Data-plane fetches that delivered a body (`served` or `interrupted`). */
  fetches: number;
  bytes: number;
  /** ISO time of the last fetch that delivered a body, or null. */
  lastFetch: string | null;
}

/** Fetch results that sent body bytes to the consumer; refusals serve nothing. */
const DELIVERING_FETCH_RESULTS = ['served', 'interrupted'];

const RESOURCES_BY_TOOL_AND_CALLER = `
  SELECT tool_name, caller,
         count(*)::int AS issued,
         count(*) FILTER (WHERE consumed_at IS NOT NULL)::int AS consumed,
         count(*) FILTER (WHERE consumed_at IS NULL AND expires_at <= $1)::int AS expired
  FROM s2sp_resource
  WHERE NOT reserved
  GROUP BY tool_name, caller`;

const DELIVERING_FETCHES_BY_TOOL_AND_SUBJECT = `
  SELECT tool_name, subject, count(*)::int AS fetches, coalesce(sum(bytes), 0)::float8 AS bytes, max(time) AS last_fetch
  FROM s2sp_data_fetch
  WHERE tool_name IS NOT NULL AND result = ANY($1::text[])
  GROUP BY tool_name, subject`;

interface ResourceCounts {
  tool_name: string;
  caller: string | null;
  issued: number;
  consumed: number;
  expired: number;
}

interface FetchCounts {
  tool_name: string;
  subject: string | null;
  fetches: number;
  bytes: number;
  last_fetch: Date | null;
}

/**
 * Per tool and caller: resources from `s2sp_resource`, fetches and bytes from
 * `s2sp_data_fetch` (attributed by the fetch's tool and subject, which the data
 * plane requires to equal the resource's caller; see
 * libs/s2sp/src/data-plane/data-plane.service.ts). Read only, counts only: no
 * token, row or column leaves the server. Two statements on the database's own
 * driver (`S2spDatabase.sql`): a resource server answering it does not load
 * Prisma's query compiler (docs/data-plane-memory.md).
 */
export async function summarizeResourceActivity(sql: SqlQuery, now: Date = new Date()): Promise<ResourceActivityRow[]> {
  const [resources, fetches] = await Promise.all([
    sql.query<ResourceCounts>(RESOURCES_BY_TOOL_AND_CALLER, [now]),
    sql.query<FetchCounts>(DELIVERING_FETCHES_BY_TOOL_AND_SUBJECT, [DELIVERING_FETCH_RESULTS]),
  ]);
  const rows = new Map<string, ResourceActivityRow>();
  const rowFor = (toolName: string, caller: string | null): ResourceActivityRow => {
    const key = JSON.stringify([toolName, caller]);
    let row = rows.get(key);
    if (!row) {
      row = { toolName, caller, issued: 0, consumed: 0, expired: 0, live: 0, fetches: 0, bytes: 0, lastFetch: null };
      rows.set(key, row);
    }
    return row;
  };
  for (const group of resources)
    Object.assign(rowFor(group.tool_name, group.caller), {
      issued: group.issued,
      consumed: group.consumed,
      expired: group.expired,
    });
  for (const group of fetches) {
    Object.assign(rowFor(group.tool_name, group.subject), {
      fetches: group.fetches,
      bytes: group.bytes,
      lastFetch: group.last_fetch?.toISOString() ?? null,
    });
  }
  for (const row of rows.values()) row.live = row.issued - row.consumed - row.expired;
  return [...rows.values()].sort(
    (a, b) => a.toolName.localeCompare(b.toolName) || (a.caller ?? '').localeCompare(b.caller ?? ''),
  );
}
