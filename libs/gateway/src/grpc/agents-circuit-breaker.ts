import { Inject, Injectable } from '@nestjs/common';
import { status as GrpcStatus, type Metadata } from '@grpc/grpc-js';
import { GRPC_ERROR_METADATA } from '@s2sp/contracts';
import { CircuitBreaker, timeoutCountsAgainstDownstream, type CircuitSnapshot } from '@s2sp/platform/internal';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { isGrpcServiceError } from '@s2sp/json-rpc/internal';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { isRequestSerializationFailure } from './request-serialization-failure';

/**
 * gRPC statuses that say something about the agents' health: they count
 * against the circuit. A caller's mistake (INVALID_ARGUMENT, NOT_FOUND, ...) or
 * a call the gateway cancelled itself does not, nor does a DEADLINE_EXCEEDED the
 * agents answered themselves, naming the hop (`x-s2sp-deadline-hop`): the agents
 * are up, the caller's budget was short (or a server behind them was slow, which
 * the agents' own breakers count); otherwise a few short deadlines of one caller
 * would open the circuit for everyone. For the same reason a deadline the gateway's
 * own timer ended counts only when the call's budget was at least
 * `grpc.breakerMinimumBudgetMs` (`judgeLocalDeadline`).
 */
const AGENT_FAULTS: ReadonlySet<number> = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNKNOWN,
]);

/**
 * true: a fault of the agents; false: not theirs (they answered, or the caller erred);
 * undefined: says nothing either way (a local deadline on a budget too short to judge by),
 * and is left out of the circuit's window.
 */
export function isAgentsFault(error: unknown, judgeLocalDeadline = true): boolean | undefined {
  if (!isGrpcServiceError(error) || !AGENT_FAULTS.has(error.code) || isRequestSerializationFailure(error)) return false;
  if (error.code !== GrpcStatus.DEADLINE_EXCEEDED) return true;
  if (answeredByTheAgents(error.metadata)) return false;
  return judgeLocalDeadline ? true : undefined;
}

function answeredByTheAgents(metadata: Metadata | undefined): boolean {
  return typeof metadata?.get === 'function' && metadata.get(GRPC_ERROR_METADATA.DEADLINE_HOP).length > 0;
}

/** The circuit breaker in front of the agents: one per gateway, shared by every method (libs/gateway/README.md, "Cross-cutting behaviour"). */
@Injectable()
export class AgentsCircuitBreaker {
  private readonly breaker: CircuitBreaker;
  private readonly minimumJudgedBudgetMs: number;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, metrics: TelemetryMetrics) {
    this.breaker = new CircuitBreaker('agents', { ...config.circuitBreaker });
    this.minimumJudgedBudgetMs = config.grpc.breakerMinimumBudgetMs;
    metrics.observeCircuitBreaker('agents', () => this.breaker.state);
  }

  /**
   * Runs the call unless the circuit is open (then throws CircuitOpenError without calling);
   * `budgetMs` is the time its deadline gave it.
   */
  run<T>(call: () => Promise<T>, budgetMs: number): Promise<T> {
    const judgeLocalDeadline = timeoutCountsAgainstDownstream(budgetMs, this.minimumJudgedBudgetMs);
    return this.breaker.run(call, (error) => isAgentsFault(error, judgeLocalDeadline));
  }

  snapshot(): CircuitSnapshot {
    return this.breaker.snapshot();
  }
}
