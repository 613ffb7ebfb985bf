import type { v1 } from '@s2sp/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { resolvesWithin, type CircuitSnapshot, type CircuitStateName } from '@s2sp/platform/internal';
import { AUDIT_SINK, type AuditSink } from '@s2sp/auth';
import { auditHealthOf, type AuditHealth } from '@s2sp/core/internal';
import { type S2spDatabase } from '@s2sp/database';
import { isGrpcServiceError } from '@s2sp/json-rpc/internal';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { AgentsCircuitBreaker } from '../grpc/agents-circuit-breaker';
import { AgentsGrpcClients } from '../grpc/agents-grpc-clients';
import { unaryCall } from '../grpc/unary-call';
import { GATEWAY_VERSION, type GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_DATABASE } from '../gateway.constants';

export type HealthStatus = 'ok' | 'degraded' | 'down';
/** grpc.health.v1 serving status in lower case, or "unreachable" when the check itself failed. */
export type AgentsServingStatus = 'serving' | 'not_serving' | 'unknown' | 'service_unknown' | 'unreachable';

export interface McpServerHealth {
  id: string;
  url: string;
  connected: boolean;
  /** Same vocabulary as the agents' circuit: closed | half-open | open (unknown when unset). */
  circuit: CircuitStateName | 'unknown';
  toolCount: number;
  lastError?: string;
}

export interface HealthReport {
  status: HealthStatus;
  gateway: {
    version: string;
    /** The S2SP contract (s2sp.v1 and the JSON-RPC methods) this gateway serves: CONTRACT_VERSION of @s2sp/contracts. */
    contractVersion: string;
    uptimeMs: number;
    database: { kind: S2spDatabase['kind']; status: 'ok' | 'unavailable' };
    /** The audit of authorization decisions: `failing` while writes fail (decisions stay buffered and are retried). */
    audit: AuditHealth;
  };
  agents: {
    url: string;
    status: AgentsServingStatus;
    /** The gateway's circuit breaker in front of the agents. */
    circuit: CircuitSnapshot;
    latencyMs?: number;
    error?: string;
  };
  /** From ToolService.ListServers; empty when the agents could not be asked (see mcpServersError). */
  mcpServers: McpServerHealth[];
  mcpServersError?: string;
}

const CIRCUIT_STATES: Readonly<Record<string, CircuitStateName>> = {
  CIRCUIT_STATE_CLOSED: 'closed',
  CIRCUIT_STATE_HALF_OPEN: 'half-open',
  CIRCUIT_STATE_OPEN: 'open',
};

/**
 * GET /health: the agents through the standard gRPC health service, the MCP
 * servers behind them through ToolService.ListServers, the breaker state and
 * the gateway's database. Each probe has a short timeout and none of them goes
 * through (or counts against) the circuit breaker.
 *
 * down: the agents do not answer SERVING. degraded: they do, but the circuit is
 * not closed, an MCP server is disconnected or its circuit is not closed, the
 * server list is unavailable, the gateway's database does not answer, or its
 * audit writes fail.
 */
@Injectable()
export class GatewayHealth {
  private readonly startedAt = Date.now();

  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly breaker: AgentsCircuitBreaker,
    @Inject(GATEWAY_DATABASE) private readonly database: S2spDatabase,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(AUDIT_SINK) private readonly auditSink: AuditSink,
  ) {}

  async report(): Promise<HealthReport> {
    const [agents, servers, databaseOk] = await Promise.all([
      this.checkAgents(),
      this.listServers(),
      this.checkDatabase(),
    ]);
    const circuit = this.breaker.snapshot();
    const report: HealthReport = {
      status: 'ok',
      gateway: {
        version: GATEWAY_VERSION,
        contractVersion: CONTRACT_VERSION,
        uptimeMs: Date.now() - this.startedAt,
        database: { kind: this.database.kind, status: databaseOk ? 'ok' : 'unavailable' },
        audit: auditHealthOf({ decisions: this.auditSink }),
      },
      agents: { url: this.clients.address, ...agents, circuit },
      mcpServers: servers.servers,
      ...(servers.error ? { mcpServersError: servers.error } : {}),
    };
    report.status = overallStatus(report);
    return report;
  }

  private async checkAgents(): Promise<{ status: AgentsServingStatus; latencyMs?: number; error?: string }> {
    const started = Date.now();
    try {
      const response = await unaryCall<{ status?: string }>(
        this.clients.health,
        'Check',
        { service: '' },
        this.probeOptions(),
      );
      return { status: servingStatus(response.status), latencyMs: Date.now() - started };
    } catch (error) {
      return { status: 'unreachable', error: describeError(error) };
    }
  }

  private async listServers(): Promise<{ servers: McpServerHealth[]; error?: string }> {
    try {
      const response = await unaryCall<v1.ListServersResponse>(
        this.clients.toolService,
        'ListServers',
        {},
        this.probeOptions(),
      );
      return { servers: (response.servers ?? []).map(mcpServerHealth) };
    } catch (error) {
      return { servers: [], error: describeError(error) };
    }
  }

  private checkDatabase(): Promise<boolean> {
    return resolvesWithin(this.database.sql.query('SELECT 1'), this.config.health.timeoutMs);
  }

  private probeOptions() {
    return { deadline: Date.now() + this.config.health.timeoutMs, metadata: new Metadata() };
  }
}

function overallStatus(report: HealthReport): HealthStatus {
  if (report.agents.status !== 'serving') return 'down';
  const degraded =
    report.agents.circuit.state !== 'closed' ||
    report.mcpServersError !== undefined ||
    report.mcpServers.some((server) => !server.connected || server.circuit !== 'closed') ||
    report.gateway.database.status !== 'ok' ||
    report.gateway.audit.status !== 'ok';
  return degraded ? 'degraded' : 'ok';
}

function servingStatus(status: string | undefined): AgentsServingStatus {
  switch (status) {
    case 'SERVING':
      return 'serving';
    case 'NOT_SERVING':
      return 'not_serving';
    case 'SERVICE_UNKNOWN':
      return 'service_unknown';
    default:
      return 'unknown';
  }
}

function mcpServerHealth(server: v1.McpServerStatus): McpServerHealth {
  return {
    id: server.id ?? '',
    url: server.url ?? '',
    connected: server.connected === true,
    circuit: CIRCUIT_STATES[server.circuit ?? ''] ?? 'unknown',
    toolCount: server.tool_count ?? 0,
    ...(server.last_error ? { lastError: server.last_error } : {}),
  };
}

function describeError(error: unknown): string {
  if (isGrpcServiceError(error))
    return `${GrpcStatus[error.code] ?? error.code}${error.details ? `: ${error.details}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
