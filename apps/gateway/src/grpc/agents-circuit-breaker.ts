import { Inject, Injectable } from '@nestjs/common';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { CircuitBreaker, type CircuitSnapshot } from '@s2sp/platform';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { isGrpcServiceError } from '@s2sp/json-rpc';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { isRequestSerializationFailure } from './request-serialization-failure';

/**
 * gRPC statuses that say something about the agents' health: they count
 * against the circuit. A caller's mistake (INVALID_ARGUMENT, NOT_FOUND, ...) or
 * a call the gateway cancelled itself does not.
 */
const AGENT_FAULTS: ReadonlySet<number> = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNKNOWN,
]);

export function isAgentsFault(error: unknown): boolean {
  return isGrpcServiceError(error) && AGENT_FAULTS.has(error.code) && !isRequestSerializationFailure(error);
}

/** The circuit breaker in front of the agents: one per gateway, shared by every method (apps/gateway/README.md, "Cross-cutting behaviour"). */
@Injectable()
export class AgentsCircuitBreaker {
  private readonly breaker: CircuitBreaker;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, metrics: TelemetryMetrics) {
    this.breaker = new CircuitBreaker('agents', { ...config.circuitBreaker });
    metrics.observeCircuitBreaker('agents', () => this.breaker.state);
  }

  /** Runs the call unless the circuit is open (then throws CircuitOpenError without calling). */
  run<T>(call: () => Promise<T>): Promise<T> {
    return this.breaker.run(call, isAgentsFault);
  }

  snapshot(): CircuitSnapshot {
    return this.breaker.snapshot();
  }
}
