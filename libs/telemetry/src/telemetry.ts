import {
  context,
  createNoopMeter,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type * as OtlpMetricsExport from '@opentelemetry/exporter-metrics-otlp-http';
import type * as OtlpTraceExport from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as MetricsSdk from '@opentelemetry/sdk-metrics';
import type { IMetricReader, MeterProvider } from '@opentelemetry/sdk-metrics';
import type * as TraceSdk from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanExporter, SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type * as SemanticConventions from '@opentelemetry/semantic-conventions';
import {
  metricsEnabled,
  spanDestination,
  type SpanDestination,
  type TelemetryOptions,
} from './config/telemetry-options';
import { startMetricsServer, PrometheusScrape, type MetricsServer } from './metrics/prometheus';
import { TelemetryMetrics } from './metrics/telemetry-metrics';
import { errorCodeOf, recordError, type ErrorCodeResolver } from './tracing/errors';
import { installGlobalPropagation } from './tracing/global-propagation';

/**
 * Instrumentation scope of the spans and metrics this library makes.
 * @public
 */
export const INSTRUMENTATION_SCOPE = '@s2sp/telemetry';

const DEFAULT_OTLP_METRICS_INTERVAL_MS = 60_000;

/**
 * The span handed to callbacks when tracing is off: records nothing, propagates nothing.
 * @public
 */
export const NON_RECORDING_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** @public */
export interface WithSpanOptions {
  kind?: SpanKind;
  /** Parent context (default: the active one), e.g. the one captured when a background task was submitted. */
  parent?: Context;
}

/**
 * One app's telemetry: its tracer (own TracerProvider and `service.name`),
 * its metrics (own MeterProvider, Prometheus reader, optional /metrics
 * server). Several apps in one process each start their own; they share only
 * the process-wide context manager and propagator, so one in-memory exporter
 * passed to all of them sees a whole cross-service trace, each span carrying
 * its app's resource.
 *
 * With tracing off (no exporter, no OTLP endpoint) there is no provider at
 * all: `tracingEnabled` is false, interceptors only make the incoming context
 * active, and withSpan calls its function directly.
 * @public
 */
export class Telemetry {
  readonly serviceName: string;
  readonly tracingEnabled: boolean;
  readonly metricsEnabled: boolean;
  readonly tracer: Tracer;
  readonly metrics: TelemetryMetrics;
  /** `s2sp.version` of server spans and the `version` label. */
  readonly apiVersion: string;
  readonly mcpServerId: string;
  readonly errorCode: ErrorCodeResolver;
  /** Where spans go: off, a given exporter, or OTLP (with its URL). */
  readonly spanDestination: SpanDestination['kind'];
  private readonly tracerProvider: TracerProvider | undefined;
  private readonly meterProvider: MeterProvider | undefined;
  private readonly prometheus: PrometheusScrape | undefined;
  private metricsServer: MetricsServer | undefined;
  private stopping: Promise<void> | undefined;

  private constructor(options: TelemetryOptions) {
    installGlobalPropagation();
    this.serviceName = options.serviceName;
    this.apiVersion = options.apiVersion ?? options.serviceVersion ?? '1';
    this.mcpServerId = options.mcpServerId ?? options.serviceName;
    this.errorCode = options.errorCode ?? errorCodeOf;
    // The resource (and the SDKs below) load only in an app that records spans or metrics.
    const resource = (): Resources.Resource => {
      const { defaultResource, resourceFromAttributes } = resources();
      const { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } = semanticConventions();
      return defaultResource().merge(
        resourceFromAttributes({
          ...options.resourceAttributes,
          [ATTR_SERVICE_NAME]: options.serviceName,
          ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
        }),
      );
    };

    const destination = spanDestination(options);
    this.spanDestination = destination.kind;
    const processor = spanProcessorFor(destination);
    this.tracingEnabled = processor !== undefined;
    if (processor) {
      const { TracerProvider, ParentBasedSampler, AlwaysOnSampler } = traceSdk();
      this.tracerProvider = new TracerProvider({
        resource: resource(),
        sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
        spanProcessors: [processor],
      });
      this.tracer = this.tracerProvider.getTracer(INSTRUMENTATION_SCOPE);
    } else {
      // A provider with no delegate: a no-op tracer even if someone registered a global provider.
      this.tracer = new ProxyTracerProvider().getTracer(INSTRUMENTATION_SCOPE);
    }

    this.metricsEnabled = metricsEnabled(options);
    if (this.metricsEnabled) {
      this.prometheus = new PrometheusScrape();
      this.meterProvider = new (metricsSdk().MeterProvider)({
        resource: resource(),
        readers: metricReaders(this.prometheus, options),
      });
      this.metrics = new TelemetryMetrics(this.meterProvider.getMeter(INSTRUMENTATION_SCOPE));
    } else {
      this.metrics = new TelemetryMetrics(createNoopMeter());
    }
  }

  /** Starts one app's telemetry (and its /metrics server when `metricsPort` is set). */
  static async start(options: TelemetryOptions): Promise<Telemetry> {
    const telemetry = new Telemetry(options);
    if (options.metricsPort !== undefined && telemetry.prometheus) {
      telemetry.metricsServer = await startMetricsServer(
        () => telemetry.scrape(),
        options.metricsPort,
        options.metricsHost,
      );
    }
    return telemetry;
  }

  /** URL of the standalone /metrics server, when one was asked for. */
  get metricsUrl(): string | undefined {
    return this.metricsServer?.url;
  }

  /** This app's metrics in Prometheus text format ('' with metrics off). */
  scrape(): Promise<string> {
    return this.prometheus ? this.prometheus.scrape() : Promise.resolve('');
  }

  /**
   * A span around `fn` (active inside it, so calls made there carry it on):
   * ended when `fn` settles, marked failed with its unified code when `fn`
   * throws. For client calls (gRPC, MCP, data plane) and task steps. With
   * tracing off, `fn` runs at once with NON_RECORDING_SPAN (within `parent` when given).
   */
  withSpan<T>(
    name: string,
    attributes: Attributes | undefined,
    fn: (span: Span) => Promise<T> | T,
    options: WithSpanOptions = {},
  ): Promise<T> {
    if (!this.tracingEnabled) {
      const run = async () => fn(NON_RECORDING_SPAN);
      return options.parent ? context.with(options.parent, run) : run();
    }
    const parent = options.parent ?? context.active();
    const span = this.tracer.startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
    return context.with(trace.setSpan(parent, span), async () => {
      try {
        return await fn(span);
      } catch (error) {
        recordError(span, error, this.errorCode(error));
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** Flushes spans and metrics, stops the /metrics server. Safe to call twice. A given spanExporter is flushed, never shut down. */
  shutdown(): Promise<void> {
    this.stopping ??= Promise.allSettled([
      this.tracerProvider?.shutdown(),
      this.meterProvider?.shutdown(),
      this.metricsServer?.close(),
    ]).then(() => undefined);
    return this.stopping;
  }

  /** Exports finished spans now (tests: before reading the in-memory exporter). */
  async flush(): Promise<void> {
    await this.tracerProvider?.forceFlush();
  }
}

/**
 * Starts one app's telemetry: see {@link Telemetry}.
 * @public
 */
export function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  return Telemetry.start(options);
}

function spanProcessorFor(destination: SpanDestination): SpanProcessor | undefined {
  switch (destination.kind) {
    case 'off':
      return undefined;
    case 'exporter':
      // Synchronous export: a test reads its spans as soon as they end.
      return new (traceSdk().SimpleSpanProcessor)({ exporter: new BorrowedSpanExporter(destination.exporter) });
    case 'otlp':
      return new (traceSdk().BatchSpanProcessor)({
        exporter: new (otlpTraceExport().OTLPTraceExporter)({ url: destination.url }),
      });
  }
}

// The tracing SDK loads only in an app that records spans (tracing is off without an exporter).
function traceSdk(): typeof TraceSdk {
  return require('@opentelemetry/sdk-trace') as typeof TraceSdk;
}

// The metrics SDK (about 50 modules) loads only in an app that keeps metrics; the resource
// detection only in one that keeps spans or metrics: an app without TelemetryModule loads neither.
function metricsSdk(): typeof MetricsSdk {
  return require('@opentelemetry/sdk-metrics') as typeof MetricsSdk;
}

function resources(): typeof Resources {
  return require('@opentelemetry/resources') as typeof Resources;
}

// Its index, every stable attribute name (about 380 kB of source), is read for two of them.
function semanticConventions(): typeof SemanticConventions {
  return require('@opentelemetry/semantic-conventions') as typeof SemanticConventions;
}

// The OTLP exporters (with their protobuf and HTTP layers, about 80 modules) load only in an app
// that exports to an OTLP endpoint.
function otlpTraceExport(): typeof OtlpTraceExport {
  return require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpTraceExport;
}

function otlpMetricsExport(): typeof OtlpMetricsExport {
  return require('@opentelemetry/exporter-metrics-otlp-http') as typeof OtlpMetricsExport;
}

function metricReaders(prometheus: PrometheusScrape, options: TelemetryOptions): IMetricReader[] {
  const readers: IMetricReader[] = [prometheus.reader];
  if (options.otlpMetricsUrl) {
    readers.push(
      new (metricsSdk().PeriodicExportingMetricReader)({
        exporter: new (otlpMetricsExport().OTLPMetricExporter)({ url: options.otlpMetricsUrl }),
        exportIntervalMillis: options.otlpMetricsIntervalMs ?? DEFAULT_OTLP_METRICS_INTERVAL_MS,
      }),
    );
  }
  return readers;
}

/**
 * An exporter this app uses but does not own (one in-memory exporter shared
 * by several apps of a test): shutting the app down flushes it only.
 */
class BorrowedSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, resultCallback);
  }

  async shutdown(): Promise<void> {
    await this.inner.forceFlush?.();
  }

  async forceFlush(): Promise<void> {
    await this.inner.forceFlush?.();
  }
}
