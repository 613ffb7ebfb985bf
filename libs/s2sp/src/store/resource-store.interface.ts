import type { Row } from '../protocol/row';
import type { ResourceTable } from './resource-table';

export type { Row };

/**
 * What a resource tool caches when it answers in async mode.
 * @public
 */
export interface NewCachedResource {
  /** SHA-256 hex of the resource_url token. The raw token never reaches a store. */
  tokenHash: string;
  toolName: string;
  columns: string[];
  abstractDomains: string[];
  bodyDomains: string[];
  /** The full rows (every column, abstract and body), row `i` being `_row_id` `i`. */
  table: ResourceTable;
  caller?: string | null;
  /** The issuing caller's scopes. */
  callerScopes?: string[] | null;
  /** Scopes the resource tool required; a fetch must hold them too. */
  requiredScopes?: string[];
  /** Consumer service the resource is bound to (only its fetch may consume it). */
  consumer?: string | null;
  expiresAt: Date;
}

/**
 * Metadata of a live (unconsumed, unexpired) cached resource.
 * @public
 */
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

/**
 * A resource won by one claim: its metadata and its whole table; selection happens in the caller.
 * @public
 */
export interface ClaimedResource {
  info: CachedResourceInfo;
  table: ResourceTable;
}

/**
 * A resource_url token reserved by a store ({@link ResourceStore.reserveToken}); the token itself
 * never leaves the process that reserved it.
 * @public
 */
export interface ReservedResourceToken {
  /** The resource_url's capability token (base64url, 256 bits). */
  token: string;
  /** SHA-256 hex of the token, as `save` receives it. */
  tokenHash: string;
}

/**
 * Persistence of the S2SP data plane. Implementations must make `claim`
 * atomic: of N concurrent calls for one token hash, in any number of
 * processes sharing the store, exactly one gets the table.
 * @public
 */
export interface ResourceStore {
  /**
   * Optional: a resource_url token whose row the store already committed, for the next `save`,
   * which then need not wait for the database before the answer; undefined when none is ready
   * (the publisher then makes a fresh token).
   */
  reserveToken?(): ReservedResourceToken | undefined;
  save(resource: NewCachedResource): Promise<CachedResourceInfo>;
  /** The live resource for this token hash, or null if unknown, expired or consumed. Does not consume. */
  findLive(tokenHash: string, now?: Date): Promise<CachedResourceInfo | null>;
  /**
   * Marks the resource consumed and returns it, or null if it was unknown,
   * expired or already consumed (including by a concurrent call).
   */
  claim(tokenHash: string, now?: Date): Promise<ClaimedResource | null>;
  /** Deletes expired resources and what is left of consumed ones; returns how many resources were removed. */
  sweepExpired(now?: Date): Promise<number>;
}

/** @public */
export const RESOURCE_STORE = Symbol('S2SP_RESOURCE_STORE');
