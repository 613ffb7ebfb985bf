import {
  createNoopMeter,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableGauge,
  type ObservableResult,
} from '@opentelemetry/api';
import type { ErrorCode } from '../tracing/errors';

/** Seconds: fine below 10 ms (the gateway's own work) up to the 2-minute maximum deadline. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** @public */
export type RequestStatus = 'success' | 'error';
/** @public */
export type CircuitStateValue = 0 | 1 | 2;
/**
 * Which end of the data plane counted it.
 * @public
 */
export type DataPlaneSide = 'consumer' | 'server';
/**
 * Which audit trail a write was for: authorization decisions or data-plane fetches.
 * @public
 */
export type AuditTrail = 'decisions' | 'data-fetches';
/**
 * Outcome of one data-plane fetch.
 * @public
 */
export type FetchResult = 'ok' | 'gone' | 'refused' | 'timeout' | 'unreachable' | 'error';

/**
 * What `circuit_breaker_state` reads: the gauge's numbers (0 closed, 1 half-open, 2 open) or platform state names.
 * @public
 */
export type CircuitStateSource = () => CircuitStateValue | 'closed' | 'half-open' | 'open';

/**
 * The platform's instruments (protocol requests, errors and latency, gateway
 * transcoding, MCP tool calls, circuit breaker state, plus the S2SP and audit
 * ones; docs/telemetry.md, "Instruments", lists them), created once per
 * app and recorded through typed methods. With metrics off every method is a
 * no-op on a no-op meter.
 * @public
 */
export class TelemetryMetrics {
  private readonly requests: Counter;
  private readonly errors: Counter;
  private readonly requestDuration: Histogram;
  private readonly transcodings: Counter;
  private readonly transcodingDuration: Histogram;
  private readonly toolCallDuration: Histogram;
  private readonly circuitState: ObservableGauge;
  private readonly resourcesIssued: Counter;
  private readonly fetches: Counter;
  private readonly bodyBytes: Counter;
  private readonly tokensSaved: Counter;
  private readonly auditWriteFailures: Counter;
  private readonly circuits = new Map<string, CircuitStateSource>();

  constructor(meter: Meter = createNoopMeter()) {
    const seconds = { unit: 's', advice: { explicitBucketBoundaries: LATENCY_BUCKETS } };
    this.requests = meter.createCounter('protocol_requests_total', {
      description: 'Requests by protocol, method, outcome and version.',
    });
    this.errors = meter.createCounter('protocol_errors_total', {
      description: 'Failed requests by protocol, unified error code and method.',
    });
    this.requestDuration = meter.createHistogram('protocol_request_duration_seconds', {
      ...seconds,
      description: 'Server-side request latency.',
    });
    this.transcodings = meter.createCounter('gateway_transcoding_total', {
      description: 'Gateway transcodings by source and target protocol.',
    });
    this.transcodingDuration = meter.createHistogram('gateway_transcoding_duration_seconds', {
      ...seconds,
      description: 'Time the gateway spends translating between protocols.',
    });
    this.toolCallDuration = meter.createHistogram('mcp_tool_call_duration_seconds', {
      ...seconds,
      description: 'MCP tool call latency.',
    });
    this.circuitState = meter.createObservableGauge('circuit_breaker_state', {
      description: '0 = closed, 1 = half-open, 2 = open.',
    });
    this.circuitState.addCallback((result) => this.observeCircuits(result));
    this.resourcesIssued = meter.createCounter('s2sp_resources_issued_total', {
      description: 'resource_urls issued by resource tools.',
    });
    this.fetches = meter.createCounter('s2sp_fetches_total', {
      description: 'Data-plane fetches by outcome and side.',
    });
    this.bodyBytes = meter.createCounter('s2sp_body_bytes_total', {
      unit: 'By',
      description: 'Body bytes that went over the data plane.',
    });
    this.tokensSaved = meter.createCounter('s2sp_context_tokens_saved_total', {
      description: 'Tokens of body columns kept out of the model context.',
    });
    this.auditWriteFailures = meter.createCounter('audit_write_failures_total', {
      description: 'Failed attempts to store audit records, by trail (the records stay buffered and are retried).',
    });
  }

  /** One handled request: protocol_requests_total, its duration and, when failed, protocol_errors_total. */
  recordRequest(
    protocol: string,
    method: string,
    version: string,
    durationSeconds: number,
    errorCode?: ErrorCode,
  ): void {
    const status: RequestStatus = errorCode === undefined ? 'success' : 'error';
    this.requests.add(1, { protocol, method, status, version });
    this.requestDuration.record(durationSeconds, { protocol, method });
    if (errorCode !== undefined) this.errors.add(1, { protocol, error_code: String(errorCode), method });
  }

  /** One translation by the gateway (e.g. json-rpc → grpc request mapping). */
  recordTranscoding(source: string, target: string, method: string, durationSeconds: number): void {
    this.transcodings.add(1, { source_protocol: source, target_protocol: target, method });
    this.transcodingDuration.record(durationSeconds, { source, target });
  }

  /** One MCP tool call, on the client (agents) or the server side. */
  recordToolCall(toolName: string, serverId: string, durationSeconds: number, status: RequestStatus = 'success'): void {
    this.toolCallDuration.record(durationSeconds, { tool_name: toolName, server_id: serverId, status });
  }

  /**
   * Reports a circuit breaker's state as `circuit_breaker_state{service}` at
   * every collection. Returns the function that stops reading it (the SDK
   * keeps exporting its last value until the app's telemetry shuts down).
   */
  observeCircuitBreaker(service: string, state: CircuitStateSource): () => void {
    this.circuits.set(service, state);
    return () => {
      if (this.circuits.get(service) === state) this.circuits.delete(service);
    };
  }

  resourceIssued(tool: string): void {
    this.resourcesIssued.add(1, { tool });
  }

  dataPlaneFetch(result: FetchResult, side: DataPlaneSide, bodyBytes?: number): void {
    this.fetches.add(1, { result, side });
    if (bodyBytes !== undefined && bodyBytes > 0) this.bodyBytes.add(bodyBytes, { side });
  }

  contextTokensSaved(tool: string, tokens: number): void {
    if (tokens > 0) this.tokensSaved.add(tokens, { tool });
  }

  auditWriteFailed(trail: AuditTrail): void {
    this.auditWriteFailures.add(1, { trail });
  }

  private observeCircuits(result: ObservableResult): void {
    for (const [service, read] of this.circuits) {
      let state: ReturnType<CircuitStateSource>;
      try {
        state = read();
      } catch {
        continue;
      }
      result.observe(typeof state === 'number' ? state : CIRCUIT_STATE_VALUES[state], { service });
    }
  }
}

const CIRCUIT_STATE_VALUES = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * Classifies a data-plane HTTP status (or a thrown S2SP code) as a fetch outcome.
 * @public
 */
export function fetchResultOf(statusOrCode: number | string | undefined): FetchResult {
  if (statusOrCode === undefined) return 'error';
  if (typeof statusOrCode === 'number') {
    if (statusOrCode >= 200 && statusOrCode < 300) return 'ok';
    if (statusOrCode === 404 || statusOrCode === 410) return 'gone';
    if (statusOrCode === 504 || statusOrCode === 408) return 'timeout';
    return statusOrCode >= 400 && statusOrCode < 500 ? 'refused' : 'error';
  }
  switch (statusOrCode) {
    case 'RESOURCE_GONE':
      return 'gone';
    case 'FETCH_REFUSED':
      return 'refused';
    case 'DEADLINE_EXCEEDED':
      return 'timeout';
    case 'UNREACHABLE':
    case 'UNAVAILABLE':
      return 'unreachable';
    default:
      return 'error';
  }
}
