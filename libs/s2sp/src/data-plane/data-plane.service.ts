import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DATA_PLANE_FETCH_AUDIT,
  type DataPlaneFetchAudit,
  type DataPlaneFetchResult,
} from '../audit/data-plane-fetch-audit';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { hashResourceToken, isWellFormedResourceToken } from '../protocol/resource-token';
import { ROW_ID } from '../protocol/row';
import { RESOURCE_STORE, type CachedResourceInfo, type ResourceStore } from '../store/resource-store.interface';
import { ResourceTableNotStoredError } from '../store/resource-table-not-stored.error';
import { DataPlaneError } from './data-plane-error';
import { parseFetchRequest, type FetchRequest } from './fetch-request';
import { TableSelection } from './table-selection';

/**
 * The verified identity behind a fetch (from the data plane's auth middleware).
 * @public
 */
export interface DataPlaneAccess {
  subject: string;
  scopes: readonly string[];
  /** Services that narrowed the token, oldest first; the last one presented it. */
  delegatedBy: readonly string[];
  traceId?: string;
}

/**
 * A claimed resource and what of it this fetch gets, ready to be written out.
 * @public
 */
export interface GrantedFetch {
  info: CachedResourceInfo;
  selection: TableSelection;
  access?: DataPlaneAccess;
}

/**
 * Serves cached tables to consumers. A request is validated against the live
 * resource (its shape, and who may fetch it) before the token is consumed, so
 * a rejected request leaves it usable. Every fetch, served or refused, is audited.
 * @public
 */
@Injectable()
export class DataPlaneService {
  private readonly logger = new Logger('S2spDataPlane');

  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Inject(RESOURCE_STORE) private readonly store: ResourceStore,
    @Inject(DATA_PLANE_FETCH_AUDIT) private readonly audit: DataPlaneFetchAudit,
  ) {}

  /**
   * Validates the request and claims the resource: from here on the token is
   * spent. The caller writes the selection out and reports with {@link served}.
   */
  async grant(token: string, body: unknown, access?: DataPlaneAccess): Promise<GrantedFetch> {
    let info: CachedResourceInfo | null = null;
    try {
      if (!isWellFormedResourceToken(token)) throw DataPlaneError.notFound();
      const tokenHash = hashResourceToken(token);
      info = await this.store.findLive(tokenHash).catch(notReadyWhenNotStored);
      if (info === null) throw DataPlaneError.notFound();

      checkAccess(info, access);
      const request = parseFetchRequest(body, this.options.limits);
      checkAgainst(info, request);

      const claimed = await this.store.claim(tokenHash).catch(notReadyWhenNotStored);
      if (claimed === null) throw DataPlaneError.notFound();
      info = claimed.info;
      // `_row_id` leads every row anyway; naming it selects nothing more.
      const columns = request.columns.length > 0 ? request.columns.filter((column) => column !== ROW_ID) : info.columns;
      const rowIds = request.rowIds.length > 0 ? [...request.rowIds].sort((a, b) => a - b) : null;
      const selection = new TableSelection(claimed.table, rowIds, columns, request.columns.length === 0);
      return { info, selection, ...(access ? { access } : {}) };
    } catch (error) {
      if (error instanceof DataPlaneError) await this.record(info, access, resultOf(error), error.message);
      throw error;
    }
  }

  /** Audits a granted fetch once its answer is written (or broke off, with the reason). */
  async served(fetch: GrantedFetch, bytes: number, interruption?: string): Promise<void> {
    const served = { rows: fetch.selection.rowCount, columns: fetch.selection.columns.length, bytes };
    await this.record(
      fetch.info,
      fetch.access,
      interruption === undefined ? 'served' : 'interrupted',
      interruption,
      served,
    );
  }

  /**
   * A fetch is served even if its audit row cannot be written: the resource is
   * already consumed, and refusing now would destroy it without need.
   */
  private async record(
    info: CachedResourceInfo | null,
    access: DataPlaneAccess | undefined,
    result: DataPlaneFetchResult,
    reason?: string,
    served: { rows: number; columns: number; bytes: number } = { rows: 0, columns: 0, bytes: 0 },
  ): Promise<void> {
    try {
      await this.audit.record({
        time: new Date(),
        resourceId: info?.id,
        toolName: info?.toolName,
        subject: access?.subject,
        consumer: access?.delegatedBy.at(-1),
        delegatedBy: access?.delegatedBy ?? [],
        callerScopes: access?.scopes,
        result,
        reason,
        ...served,
        traceId: access?.traceId,
      });
    } catch (error) {
      this.logger.error(
        `Could not audit a data-plane fetch (${result}): ${error instanceof Error ? error.message : 'unknown error'}`,
      );
    }
  }
}

/** Columns may be any of the resource's columns (abstract or body); `_row_id` is always returned anyway. */
function checkAgainst(info: CachedResourceInfo, request: FetchRequest): void {
  const known = new Set([ROW_ID, ...info.columns]);
  const unknownColumns = request.columns.filter((column) => !known.has(column));
  if (unknownColumns.length > 0) {
    throw new DataPlaneError(
      400,
      'UNKNOWN_COLUMN',
      `Unknown column${unknownColumns.length > 1 ? 's' : ''}: ${unknownColumns.join(', ')}. Columns: ${info.columns.join(', ')}.`,
    );
  }
  const unknownRows = request.rowIds.filter((id) => id >= info.rowCount);
  if (unknownRows.length > 0) {
    throw new DataPlaneError(
      400,
      'UNKNOWN_ROW_ID',
      `Unknown _row_id ${unknownRows.slice(0, 20).join(', ')}: this resource has rows 0 to ${info.rowCount - 1}.`,
    );
  }
}

/**
 * A resource issued to a caller is served only to that caller, through the
 * consumer it is bound to, holding every scope the resource tool required.
 */
function checkAccess(info: CachedResourceInfo, access: DataPlaneAccess | undefined): void {
  if (info.caller === null) return;
  if (!access)
    throw new DataPlaneError(
      401,
      'UNAUTHENTICATED',
      'This resource needs the credentials of the caller it was issued to.',
    );
  if (access.subject !== info.caller)
    throw new DataPlaneError(403, 'FORBIDDEN', 'This resource was issued to another caller.');
  if (info.consumer !== null && access.delegatedBy.at(-1) !== info.consumer) {
    throw new DataPlaneError(403, 'FORBIDDEN', 'This resource is bound to another consumer.');
  }
  const missing = info.requiredScopes.filter((scope) => !access.scopes.includes(scope));
  if (missing.length > 0) {
    // The same code as the auth middleware's refusal for s2sp:data:read: a missing scope reads alike whichever scope it is.
    throw new DataPlaneError(
      403,
      'PERMISSION_DENIED',
      `Missing scope${missing.length > 1 ? 's' : ''} required by the resource tool: ${missing.join(' ')}.`,
    );
  }
}

function resultOf(error: DataPlaneError): DataPlaneFetchResult {
  if (error.status === 404) return 'not-found';
  if (error.status === 503) return 'not-ready';
  if (error.status === 401) return 'unauthenticated';
  if (error.status === 403) return 'forbidden';
  return 'invalid-request';
}

/** A resource another process issued and has not stored yet answers 503 RESOURCE_NOT_READY, unconsumed. */
function notReadyWhenNotStored(error: unknown): never {
  throw error instanceof ResourceTableNotStoredError ? DataPlaneError.notReady(error.message) : error;
}
