// Sample cached resources for ResourceStore tests.
import { createHash, randomBytes } from 'node:crypto';
import type { NewCachedResource, Row } from '../../libs/s2sp/src/store/resource-store.interface';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';

/** A fresh token hash (SHA-256 hex of a random token), as the resource layer would store it. */
export function newTokenHash(): string {
  return createHash('sha256').update(randomBytes(32)).digest('hex');
}

/** `count` full rows (row `i` is `_row_id` `i`) with a mix of JSON value kinds. */
export function sampleRows(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    event: i % 3 === 0 ? 'Wind Advisory' : 'Flood Watch',
    headline: `Wind Advisory issued ${i} — ünïcödé`,
    severity: i % 2 === 0 ? 'Moderate' : 'Severe',
    affected: { zones: [`AKZ${100 + i}`], population: i * 10 },
    note: null,
  }));
}

export function sampleResource(overrides: Partial<NewCachedResource> = {}): NewCachedResource {
  return {
    tokenHash: newTokenHash(),
    toolName: 'get_alerts',
    columns: ['event', 'headline', 'severity', 'affected', 'note'],
    abstractDomains: ['event'],
    bodyDomains: ['headline', 'severity', 'affected', 'note'],
    table: ResourceTable.of(sampleRows(6)),
    caller: 'agent-1',
    expiresAt: new Date(Date.now() + 60_000),
    ...overrides,
  };
}
