import type { Row } from '../protocol/row';

export type { Row };

/** What a resource tool caches when it answers in async mode. */
export interface NewCachedResource {
  /** SHA-256 hex of the resource_url token. The raw token never reaches a store. */
  tokenHash: string;
  toolName: string;
  columns: string[];
  abstractDomains: string[];
  bodyDomains: string[];
  /** Body rows: `_row_id` plus body columns, in `_row_id` order. */
  rows: Row[];
  caller?: string | null;
  /** The issuing caller's scopes. */
  callerScopes?: string[] | null;
  /** Scopes the resource tool required; a fetch must hold them too. */
  requiredScopes?: string[];
  /** Consumer service the resource is bound to (only its fetch may consume it). */
  consumer?: string | null;
  expiresAt: Date;
}

/** Metadata of a live (unconsumed, unexpired) cached resource. */
export interface CachedResourceInfo {
  id: string;
  toolName: string;
  columns: string[];
  abstractDomains: string[];
  bodyDomains: string[];
  rowCount: number;
  caller: string | null;
  callerScopes: string[] | null;
  requiredScopes: string[];
  consumer: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface ConsumeRequest {
  /** Row ids to return; empty means all rows. */
  rowIds: number[];
}

/**
 * Persistence of the S2SP data plane. Implementations must make `consume`
 * atomic: of N concurrent calls for one token hash, exactly one returns rows.
 */
export interface ResourceStore {
  save(resource: NewCachedResource): Promise<CachedResourceInfo>;
  /** The live resource for this token hash, or null if unknown, expired or consumed. Does not consume. */
  findLive(tokenHash: string, now?: Date): Promise<CachedResourceInfo | null>;
  /**
   * Marks the resource consumed and returns the requested body rows, or null if
   * it was unknown, expired or already consumed (including by a concurrent call).
   * Row ids that do not exist are simply absent from the result.
   */
  consume(tokenHash: string, request: ConsumeRequest, now?: Date): Promise<{ info: CachedResourceInfo; rows: Row[] } | null>;
  /** Deletes expired resources and the rows of consumed ones; returns how many resources were removed. */
  sweepExpired(now?: Date): Promise<number>;
}

export const RESOURCE_STORE = Symbol('S2SP_RESOURCE_STORE');
