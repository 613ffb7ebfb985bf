import { Controller, Get, Header, Res } from '@nestjs/common';
import { GatewayHealth, type HealthReport } from './gateway-health.service';

/** GET /health: 200 when ok or degraded, 503 when down. `status()` is on both Express's and Fastify's response. */
@Controller()
export class HealthController {
  constructor(private readonly health: GatewayHealth) {}

  @Get('health')
  @Header('Cache-Control', 'no-store')
  async check(@Res({ passthrough: true }) response: { status(code: number): unknown }): Promise<HealthReport> {
    const report = await this.health.report();
    response.status(report.status === 'down' ? 503 : 200);
    return report;
  }
}
