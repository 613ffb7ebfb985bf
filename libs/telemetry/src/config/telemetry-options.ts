import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { ErrorCodeResolver } from '../tracing/errors';

/**
 * What one app (gateway, agents, an MCP server) configures.
 * @public
 */
export interface TelemetryOptions {
  /** `service.name` of this app's spans and metrics, e.g. `s2sp-gateway`. */
  serviceName: string;
  serviceVersion?: string;
  /**
   * Export spans here (synchronously, one by one): for tests, an
   * `InMemorySpanExporter` shared by every app of the process. The caller owns
   * it: shutting the app's telemetry down flushes it but never shuts it down.
   * Takes precedence over OTLP.
   */
  spanExporter?: SpanExporter;
  /**
   * OTLP/HTTP URL spans are exported to, batched (e.g. `http://collector:4318/v1/traces`).
   * Unset, and without `spanExporter`: no span is recorded at all.
   */
  otlpTracesUrl?: string;
  /** false: never record spans, even with an exporter or OTLP URL configured. */
  tracing?: boolean;
  /** Metrics (default true): Prometheus scrape, plus OTLP push when `otlpMetricsUrl` is set. */
  metrics?: boolean;
  /** OTLP/HTTP URL metrics are pushed to (e.g. `http://collector:4318/v1/metrics`); unset: scrape only. */
  otlpMetricsUrl?: string;
  /** ms between OTLP metric pushes (default 60 000). */
  otlpMetricsIntervalMs?: number;
  /**
   * Also serve `GET /metrics` on its own small HTTP server (for apps without
   * HTTP, e.g. the gRPC-only agents). 0 = any free port; read `telemetry.metricsUrl`.
   */
  metricsPort?: number;
  /** Host of that server (default 127.0.0.1). */
  metricsHost?: string;
  /** `s2sp.version` on server spans and the `version` label of protocol_requests_total. */
  apiVersion?: string;
  /** MCP servers: the `server_id` label of mcp_tool_call_duration_seconds (default: serviceName). */
  mcpServerId?: string;
  /**
   * The unified error code of an exception, for `s2sp.error_code` and
   * protocol_errors_total (default errorCodeOf). The gateway passes
   * `(e) => toJsonRpcError(e).error.code` so spans say what the caller got.
   */
  errorCode?: ErrorCodeResolver;
  /** Extra resource attributes (e.g. `deployment.environment.name`). */
  resourceAttributes?: Record<string, string>;
}

/**
 * Token of the options given to TelemetryModule.forRoot / forRootAsync.
 * @public
 */
export const TELEMETRY_OPTIONS = Symbol('s2sp.telemetry.options');

/**
 * Where spans go, decided once from the options.
 * @public
 */
export type SpanDestination =
  { kind: 'off' } | { kind: 'exporter'; exporter: SpanExporter } | { kind: 'otlp'; url: string };

/**
 * Off when `tracing` is false; else the given `spanExporter`, else OTLP when `otlpTracesUrl` is set, else off.
 * @public
 */
export function spanDestination(options: TelemetryOptions): SpanDestination {
  if (options.tracing === false) return { kind: 'off' };
  if (options.spanExporter) return { kind: 'exporter', exporter: options.spanExporter };
  return options.otlpTracesUrl ? { kind: 'otlp', url: options.otlpTracesUrl } : { kind: 'off' };
}

/** @public */
export function metricsEnabled(options: TelemetryOptions): boolean {
  return options.metrics !== false;
}
