import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { callerFrom } from '@s2sp/auth';
import { traceIdFrom } from '@s2sp/auth/internal';
import { DATA_PLANE_SUMMARY } from '@s2sp/telemetry/internal';
import { nodeRequestOf, takeNodeResponse } from '@s2sp/platform/internal';
import type { IncomingMessage } from 'node:http';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { arrowEncoder } from './arrow/lazy-arrow';
import { DATA_PLANE_FORMATS, negotiateDataPlaneFormat, JSON_MEDIA_TYPE } from './data-plane-formats';
import { DataPlaneExceptionFilter } from './data-plane-exception.filter';
import { DataPlaneService, type DataPlaneAccess, type GrantedFetch } from './data-plane.service';
import { jsonAnswerChunks } from './json-answer-chunks';
import { readJsonBody } from './json-body';
import { streamToResponse } from './stream-to-response';

/** What interceptors (e.g. telemetry) learn of a served fetch: its size, not its rows. */
export interface DataPlaneFetchSummary {
  total_rows: number;
  columns_returned: string[];
  bytes: number;
}

@Controller('s2sp')
@UseFilters(DataPlaneExceptionFilter)
export class DataPlaneController {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    private readonly dataPlane: DataPlaneService,
  ) {}

  @Post('data/:token')
  @HttpCode(200)
  async fetch(
    @Param('token') token: string,
    @Req() adapterRequest: unknown,
    @Res() adapterResponse: unknown,
  ): Promise<DataPlaneFetchSummary> {
    // Node's objects under either adapter: the body is read and the answer streamed on them.
    const request = nodeRequestOf(adapterRequest);
    const body = await readJsonBody(request, this.options.limits.maxRequestBytes);
    const format = negotiateDataPlaneFormat(request.headers.accept);
    const granted = await this.dataPlane.grant(token, body, accessOf(request));
    const response = takeNodeResponse(adapterResponse);
    response.statusCode = 200;
    response.setHeader('content-type', format === JSON_MEDIA_TYPE ? 'application/json; charset=utf-8' : format);
    response.setHeader('vary', 'accept');
    const summary = (bytes: number): DataPlaneFetchSummary => ({
      total_rows: granted.selection.rowCount,
      columns_returned: ['_row_id', ...granted.selection.columns],
      bytes,
    });
    let bytes = 0;
    try {
      const chunks = format === JSON_MEDIA_TYPE ? jsonAnswerChunks(granted.selection) : arrowAnswer(granted);
      bytes = await streamToResponse(response, chunks, (written) =>
        Object.assign(response, { [DATA_PLANE_SUMMARY]: summary(written) }),
      );
    } catch (error) {
      // Headers are out: the only honest signal left to the client is a broken connection.
      response.destroy();
      await this.dataPlane.served(
        granted,
        bytes,
        error instanceof Error ? error.message : 'the answer could not be written',
      );
      throw new AnswerInterrupted();
    }
    await this.dataPlane.served(granted, bytes);
    return summary(bytes);
  }

  /** `formats`: the media types a fetch may ask for with `Accept` (JSON when it asks for none). */
  @Get('health')
  health(): { status: 'ok'; protocol: 's2sp'; version: string; formats: string[] } {
    return { status: 'ok', protocol: 's2sp', version: '1', formats: [...DATA_PLANE_FORMATS] };
  }
}

function arrowAnswer({ selection }: GrantedFetch): Iterable<Uint8Array> {
  return arrowEncoder().encodeArrowSlices(
    selection.columns,
    selection.rowCount,
    (start, end, into) => selection.readCells(start, end, into),
    (position) => selection.rowIdAt(position),
  );
}

/** Thrown after a streamed answer broke off; the exception filter leaves the (already sent) response alone. */
export class AnswerInterrupted extends Error {
  constructor() {
    super('The data-plane answer was interrupted');
  }
}

/** The caller the auth middleware verified on this request, if the app mounts it. */
function accessOf(request: IncomingMessage): DataPlaneAccess | undefined {
  const caller = callerFrom(request);
  if (!caller) return undefined;
  const traceId = traceIdFrom(request.headers.traceparent);
  return {
    subject: caller.subject,
    scopes: caller.scopes,
    delegatedBy: caller.delegatedBy ?? [],
    ...(traceId ? { traceId } : {}),
  };
}
