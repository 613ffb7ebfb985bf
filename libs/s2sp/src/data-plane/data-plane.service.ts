import { Inject, Injectable } from '@nestjs/common';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { hashResourceToken, isWellFormedResourceToken } from '../protocol/resource-token';
import { project, Row, ROW_ID } from '../protocol/row';
import { RESOURCE_STORE, type CachedResourceInfo, type ResourceStore } from '../store/resource-store.interface';
import { DataPlaneError } from './data-plane-error';
import { parseFetchRequest, type FetchRequest } from './fetch-request';

export interface DataPlaneResponse {
  body: Row[];
  total_rows: number;
  columns_returned: string[];
}

/**
 * Serves cached bodies to consumers. A request is validated against the live
 * resource before the token is consumed, so a rejected request leaves it usable.
 */
@Injectable()
export class DataPlaneService {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Inject(RESOURCE_STORE) private readonly store: ResourceStore,
  ) {}

  async serve(token: string, body: unknown): Promise<DataPlaneResponse> {
    if (!isWellFormedResourceToken(token)) throw DataPlaneError.notFound();
    const tokenHash = hashResourceToken(token);
    const info = await this.store.findLive(tokenHash);
    if (info === null) throw DataPlaneError.notFound();

    const request = parseFetchRequest(body, this.options.limits);
    this.checkAgainst(info, request);

    const consumed = await this.store.consume(tokenHash, { rowIds: request.rowIds });
    if (consumed === null) throw DataPlaneError.notFound();

    const columns = request.columns.length > 0 ? request.columns : info.bodyDomains;
    return {
      body: consumed.rows.map((row) => project(row, row[ROW_ID] as number, columns)),
      total_rows: consumed.rows.length,
      columns_returned: [ROW_ID, ...columns],
    };
  }

  private checkAgainst(info: CachedResourceInfo, request: FetchRequest): void {
    const unknownColumns = request.columns.filter((column) => !info.bodyDomains.includes(column));
    if (unknownColumns.length > 0) {
      throw new DataPlaneError(
        400,
        'UNKNOWN_COLUMN',
        `Unknown column${unknownColumns.length > 1 ? 's' : ''}: ${unknownColumns.join(', ')}. Body columns: ${info.bodyDomains.join(', ')}.`,
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
}
