import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { callerFrom, traceIdFrom } from '@s2sp/auth';
import type { Request, Response } from 'express';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { DataPlaneExceptionFilter } from './data-plane-exception.filter';
import { DataPlaneService, type DataPlaneAccess, type DataPlaneResponse } from './data-plane.service';
import { readJsonBody } from './json-body';

@Controller('s2sp')
@UseFilters(DataPlaneExceptionFilter)
export class DataPlaneController {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    private readonly dataPlane: DataPlaneService,
  ) {}

  @Post('data/:token')
  @HttpCode(200)
  async fetch(@Param('token') token: string, @Req() request: Request, @Res() response: Response): Promise<DataPlaneResponse> {
    const body = await readJsonBody(request, this.options.limits.maxRequestBytes);
    const served = await this.dataPlane.serve(token, body, accessOf(request));
    response.status(200).type('application/json').send(served.json);
    // Not sent again (@Res): returned for interceptors, e.g. telemetry's rows and body columns served.
    return served.response;
  }

  @Get('health')
  health(): { status: 'ok'; protocol: 's2sp'; version: string } {
    return { status: 'ok', protocol: 's2sp', version: '1' };
  }
}

/** The caller the auth middleware verified on this request, if the app mounts it. */
function accessOf(request: Request): DataPlaneAccess | undefined {
  const caller = callerFrom(request);
  if (!caller) return undefined;
  const traceId = traceIdFrom(request.headers.traceparent);
  return { subject: caller.subject, scopes: caller.scopes, delegatedBy: caller.delegatedBy ?? [], ...(traceId ? { traceId } : {}) };
}
