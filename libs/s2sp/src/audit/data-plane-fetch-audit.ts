import { Logger } from '@nestjs/common';

/**
 * How one data-plane fetch ended.
 * @public
 */
export type DataPlaneFetchResult =
  'served' | 'interrupted' | 'not-found' | 'not-ready' | 'forbidden' | 'unauthenticated' | 'invalid-request';

/**
 * One data-plane fetch as audited: who, which resource, what they got. Never the resource_url or a token.
 * @public
 */
export interface DataPlaneFetchRecord {
  time: Date;
  resourceId?: string;
  toolName?: string;
  subject?: string;
  /** The service that presented the token (last link of its delegation chain). */
  consumer?: string;
  delegatedBy: readonly string[];
  callerScopes?: readonly string[];
  result: DataPlaneFetchResult;
  /** For refusals: the public message. */
  reason?: string;
  rows: number;
  columns: number;
  bytes: number;
  traceId?: string;
}

/**
 * Where data-plane fetches are audited (Prisma `s2sp_data_fetch` by default).
 * @public
 */
export interface DataPlaneFetchAudit {
  record(fetch: DataPlaneFetchRecord): Promise<void>;
}

/** @public */
export const DATA_PLANE_FETCH_AUDIT = Symbol('S2SP_DATA_PLANE_FETCH_AUDIT');

/** For custom stores without the Prisma database: one JSON log line per fetch. */
export class LoggerDataPlaneFetchAudit implements DataPlaneFetchAudit {
  private readonly logger = new Logger('S2spDataPlaneAudit');

  async record(fetch: DataPlaneFetchRecord): Promise<void> {
    this.logger.log(JSON.stringify({ ...fetch, time: fetch.time.toISOString() }));
  }
}
