import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { Readiness } from '@s2sp/platform/internal';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';

/** Services reported by grpc.health.v1.Health: "" is the server as a whole. */
export const HEALTH_CHECKED_SERVICES = [
  '',
  's2sp.v1.AgentService',
  's2sp.v1.ToolService',
  's2sp.v2.ToolService',
  's2sp.v2.AgentService',
] as const;

type HealthServer = Parameters<HealthImplementation['addToServer']>[0];

/**
 * The standard gRPC health-checking service (grpc.health.v1.Health, Check
 * and Watch). NOT_SERVING until the agents listen, SERVING while they do,
 * NOT_SERVING again as soon as shutdown begins (SIGTERM, or the app closing).
 */
@Injectable()
export class GrpcHealthService implements BeforeApplicationShutdown {
  private readonly health = new HealthImplementation(
    Object.fromEntries(HEALTH_CHECKED_SERVICES.map((service) => [service, 'NOT_SERVING'])),
  );

  constructor(private readonly readiness: Readiness) {
    readiness.onShutdown(() => this.setAll('NOT_SERVING'));
  }

  /** Adds the Health service to the gRPC server (from Nest's onLoadPackageDefinition hook). */
  attach(server: HealthServer): void {
    this.health.addToServer(server);
  }

  markServing(): void {
    if (!this.readiness.isShuttingDown) this.setAll('SERVING');
  }

  beforeApplicationShutdown(): void {
    this.setAll('NOT_SERVING');
  }

  private setAll(status: ServingStatus): void {
    for (const service of HEALTH_CHECKED_SERVICES) this.health.setStatus(service, status);
  }
}
