import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { ErrorCodeResolver } from '../tracing/errors';

/** What one app (gateway, agents, an MCP server) configures. */
export interface TelemetryOptions {
  /** `service.name` of this app's spans and metrics, e.g. `s2sp-gateway`. */
  serviceName: string;
  serviceVersion?: string;
  /** Environment to read OTEL_* variables from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Export spans here (synchronously, one by one): for tests, an
   * `InMemorySpanExporter` shared by every app of the process. The caller owns
   * it: shutting the app's telemetry down flushes it but never shuts it down.
   * Takes precedence over OTLP.
   */
  spanExporter?: SpanExporter;
  /** false: never record spans, even with an exporter or OTLP endpoint configured. */
  tracing?: boolean;
  /** Metrics (default true): Prometheus scrape, plus OTLP push when the endpoint is set. */
  metrics?: boolean;
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

/** Token of the options given to TelemetryModule.forRoot / forRootAsync. */
export const TELEMETRY_OPTIONS = Symbol('s2sp.telemetry.options');

/** Where spans go, decided once from the options and the environment. */
export type SpanDestination =
  { kind: 'off' } | { kind: 'exporter'; exporter: SpanExporter } | { kind: 'otlp'; url: string };

/**
 * OTLP when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (used as is) or
 * OTEL_EXPORTER_OTLP_ENDPOINT (+ `/v1/traces`) is set; off otherwise, and
 * when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none.
 */
export function spanDestination(options: TelemetryOptions): SpanDestination {
  const env = options.env ?? process.env;
  if (options.tracing === false || isTrue(env.OTEL_SDK_DISABLED)) return { kind: 'off' };
  if (options.spanExporter) return { kind: 'exporter', exporter: options.spanExporter };
  if (env.OTEL_TRACES_EXPORTER?.trim() === 'none') return { kind: 'off' };
  const url = otlpUrl(env, 'TRACES', '/v1/traces');
  return url ? { kind: 'otlp', url } : { kind: 'off' };
}

/** The OTLP/HTTP URL for one signal, or undefined when OTLP is not configured. */
export function otlpUrl(
  env: Readonly<Record<string, string | undefined>>,
  signal: 'TRACES' | 'METRICS',
  path: string,
): string | undefined {
  const specific = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return base.replace(/\/+$/, '') + path;
}

export function metricsEnabled(options: TelemetryOptions): boolean {
  return options.metrics !== false && !isTrue((options.env ?? process.env).OTEL_SDK_DISABLED);
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}
