import { randomUUID } from 'node:crypto';
import type { CachedResourceInfo, NewCachedResource } from './resource-store.interface';

/** The metadata a store records for a resource it is saving: a new id (or the one reserved for it), created now, the rest as given. */
export function newResourceInfo(resource: NewCachedResource, id: string = randomUUID()): CachedResourceInfo {
  return {
    id,
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
}
