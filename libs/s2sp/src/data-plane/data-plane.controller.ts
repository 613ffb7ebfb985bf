import { Controller, Get, HttpCode, Inject, Param, Post, Req, UseFilters } from '@nestjs/common';
import type { Request } from 'express';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { DataPlaneExceptionFilter } from './data-plane-exception.filter';
import { DataPlaneService, type DataPlaneResponse } from './data-plane.service';
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
  async fetch(@Param('token') token: string, @Req() request: Request): Promise<DataPlaneResponse> {
    const body = await readJsonBody(request, this.options.limits.maxRequestBytes);
    return this.dataPlane.serve(token, body);
  }

  @Get('health')
  health(): { status: 'ok'; protocol: 's2sp'; version: string } {
    return { status: 'ok', protocol: 's2sp', version: '1' };
  }
}
