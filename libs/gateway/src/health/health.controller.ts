import { Controller, Get, Header, Res } from '@nestjs/common';
import { Readiness } from '@s2sp/platform/internal';
import { GatewayHealth, type HealthReport } from './gateway-health.service';

/** What GET /health answers (503) once shutdown has begun, without probing anything downstream. */
export interface ShuttingDownReport {
  status: 'shutting_down';
}

/**
 * GET /health (readiness): 200 when ok or degraded, 503 when down or shutting
 * down (load balancers stop sending). GET /health/live (liveness): 200 while
 * the process serves at all, so an orchestrator does not restart gateways
 * because the agents behind them are down, nor one that is finishing its
 * calls. `status()` is on both Express's and Fastify's response.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly health: GatewayHealth,
    private readonly readiness: Readiness,
  ) {}

  @Get('health')
  @Header('Cache-Control', 'no-store')
  async check(
    @Res({ passthrough: true }) response: { status(code: number): unknown },
  ): Promise<HealthReport | ShuttingDownReport> {
    if (this.readiness.isShuttingDown) {
      response.status(503);
      return { status: 'shutting_down' };
    }
    const report = await this.health.report();
    response.status(report.status === 'down' ? 503 : 200);
    return report;
  }

  @Get('health/live')
  @Header('Cache-Control', 'no-store')
  live(): { status: 'alive' } {
    return { status: 'alive' };
  }
}
