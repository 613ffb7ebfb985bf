import type { PrismaClient } from '@s2sp/database';

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

/**
 * Per tool and caller: resources from `s2sp_resource`, fetches and bytes from
 * `s2sp_data_fetch` (attributed by the fetch's tool and subject, which the data
 * plane requires to equal the resource's caller; see
 * libs/s2sp/src/data-plane/data-plane.service.ts). Read only, counts only: no
 * token, row or column leaves the server.
 */
export async function summarizeResourceActivity(prisma: PrismaClient, now: Date = new Date()): Promise<ResourceActivityRow[]> {
  const [issued, consumed, expired, fetches] = await Promise.all([
    prisma.s2spResource.groupBy({ by: ['toolName', 'caller'], _count: { _all: true } }),
    prisma.s2spResource.groupBy({ by: ['toolName', 'caller'], where: { consumedAt: { not: null } }, _count: { _all: true } }),
    prisma.s2spResource.groupBy({
      by: ['toolName', 'caller'],
      where: { consumedAt: null, expiresAt: { lte: now } },
      _count: { _all: true },
    }),
    prisma.dataPlaneFetch.groupBy({
      by: ['toolName', 'subject'],
      where: { toolName: { not: null }, result: { in: DELIVERING_FETCH_RESULTS } },
      _count: { _all: true },
      _sum: { bytes: true },
      _max: { time: true },
    }),
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
  for (const group of issued) rowFor(group.toolName, group.caller).issued = group._count._all;
  for (const group of consumed) rowFor(group.toolName, group.caller).consumed = group._count._all;
  for (const group of expired) rowFor(group.toolName, group.caller).expired = group._count._all;
  for (const group of fetches) {
    const row = rowFor(group.toolName as string, group.subject);
    row.fetches = group._count._all;
    row.bytes = group._sum.bytes ?? 0;
    row.lastFetch = group._max.time?.toISOString() ?? null;
  }
  for (const row of rows.values()) row.live = row.issued - row.consumed - row.expired;
  return [...rows.values()].sort(
    (a, b) => a.toolName.localeCompare(b.toolName) || (a.caller ?? '').localeCompare(b.caller ?? ''),
  );
}
