import type { EnvironmentVariables } from '@s2sp/platform';
import type { TelemetryOptions } from './telemetry-options';

/**
 * The OpenTelemetry variables of `env` as telemetry options, for an app's
 * configuration to pass (the library reads no variable itself):
 * OTEL_SDK_DISABLED=true turns spans and metrics off; OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * (used as is) or OTEL_EXPORTER_OTLP_ENDPOINT (+ `/v1/traces`) sets `otlpTracesUrl` unless
 * OTEL_TRACES_EXPORTER=none; the same for metrics (`/v1/metrics`, OTEL_METRICS_EXPORTER),
 * pushed every OTEL_METRIC_EXPORT_INTERVAL ms. Unset variables are left out.
 * @public
 */
export function telemetryOptionsFromEnv(env: EnvironmentVariables): Partial<TelemetryOptions> {
  if (isTrue(env.OTEL_SDK_DISABLED)) return { tracing: false, metrics: false };
  const tracesUrl = isNone(env.OTEL_TRACES_EXPORTER) ? undefined : otlpUrl(env, 'TRACES', '/v1/traces');
  const metricsUrl = isNone(env.OTEL_METRICS_EXPORTER) ? undefined : otlpUrl(env, 'METRICS', '/v1/metrics');
  const interval = Number(env.OTEL_METRIC_EXPORT_INTERVAL);
  return {
    ...(tracesUrl ? { otlpTracesUrl: tracesUrl } : {}),
    ...(metricsUrl ? { otlpMetricsUrl: metricsUrl } : {}),
    ...(metricsUrl && Number.isFinite(interval) && interval > 0 ? { otlpMetricsIntervalMs: interval } : {}),
  };
}

/**
 * The OTLP/HTTP URL for one signal, or undefined when OTLP is not configured.
 * @public
 */
export function otlpUrl(env: EnvironmentVariables, signal: 'TRACES' | 'METRICS', path: string): string | undefined {
  const specific = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  if (specific) return specific;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return undefined;
  return base.replace(/\/+$/, '') + path;
}

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

function isNone(exporter: string | undefined): boolean {
  return exporter?.trim() === 'none';
}
