import { Controller, Get, Header } from '@nestjs/common';
import { Telemetry } from '../telemetry';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus';

/**
 * `GET /metrics`: this app's metrics in Prometheus text format (HTTP apps).
 * @public
 */
@Controller()
export class MetricsController {
  constructor(private readonly telemetry: Telemetry) {}

  @Get('metrics')
  @Header('content-type', PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  scrape(): Promise<string> {
    return this.telemetry.scrape();
  }
}
