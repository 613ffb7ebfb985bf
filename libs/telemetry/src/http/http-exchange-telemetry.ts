import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { SpanKind, trace, type Context, type Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fetchResultOf } from '../metrics/telemetry-metrics';
import { SpanNames, TelemetryAttributes } from '../semantics/attributes';
import { Telemetry } from '../telemetry';
import { recordError, recordFailure, type ErrorCode } from '../tracing/errors';
import { extractFromHeaders } from '../tracing/propagation';
import { traceOfItsOwn } from '../tracing/trace-of-its-own';
import { withinContext } from '../tracing/within-context';
import { callerIdOf, serverSpanAttributes } from '../interceptors/server-call';

/**
 * Routes (as declared, e.g. `/metrics`) that get neither span nor metrics.
 * @public
 */
export const TELEMETRY_IGNORED_ROUTES = Symbol('s2sp.telemetry.ignored-routes');
/** @public */
export const DEFAULT_IGNORED_ROUTES: readonly string[] = ['/metrics', '/health'];

const ignore = (): void => undefined;

/** The S2SP data-plane route, served by libs/s2sp's DataPlaneController. */
const DATA_PLANE_ROUTE = /\/s2sp\/data\/:[^/]+$/;

/**
 * What a route's exchanges are recorded as; compute once per route with {@link HttpExchangeTelemetry.planFor}.
 * @public
 */
export interface HttpRoutePlan {
  readonly ignored: boolean;
  readonly dataPlane: boolean;
  /** `POST /s2sp/data/:token`: never the URL (a data-plane URL holds the capability). */
  readonly label: string;
  readonly spanName: string;
}

/**
 * One HTTP exchange: run the handler in `context`, report what it returned or threw.
 * @public
 */
export interface HttpExchange {
  readonly context: Context;
  /** False when the route is ignored or telemetry is off: only the caller's context applies. */
  readonly recording: boolean;
  /** The handler's result (a data-plane answer adds its rows and columns to the span). */
  returned(value: unknown): void;
  threw(error: unknown): void;
}

/**
 * The server side of an HTTP exchange: the parent from `traceparent`, a SERVER
 * span named `<METHOD> <route>` (`s2sp.data.serve` for the data plane), the
 * protocol metrics with protocol `http` (`s2sp-data` for the data plane). The
 * exchange ends when the response is written, so status codes set by exception
 * filters and the bytes sent count. Data-plane answers add rows, body columns,
 * bytes served, s2sp_fetches_total{side="server"} and s2sp_body_bytes_total.
 * Used by HttpTelemetryInterceptor for Nest routes, and by endpoints mounted on
 * the HTTP adapter directly (the gateway's POST /rpc).
 * @public
 */
@Injectable()
export class HttpExchangeTelemetry {
  private readonly ignoredRoutes: ReadonlySet<string>;

  constructor(
    private readonly telemetry: Telemetry,
    @Optional() @Inject(TELEMETRY_IGNORED_ROUTES) ignoredRoutes?: readonly string[],
  ) {
    this.ignoredRoutes = new Set(ignoredRoutes ?? DEFAULT_IGNORED_ROUTES);
  }

  /** `route` as declared (`/s2sp/data/:token`); `fallbackName` names it when the adapter matched none. */
  planFor(method: string, route: string | undefined, fallbackName: string): HttpRoutePlan {
    const dataPlane = route !== undefined && DATA_PLANE_ROUTE.test(route);
    const label = `${method} ${route ?? fallbackName}`;
    return {
      ignored: route !== undefined && this.ignoredRoutes.has(route),
      dataPlane,
      label,
      spanName: dataPlane ? SpanNames.DATA_PLANE_SERVE : label,
    };
  }

  start(plan: HttpRoutePlan, request: IncomingMessage, response: ServerResponse): HttpExchange {
    const parent = extractFromHeaders(request.headers);
    const telemetry = this.telemetry;
    if (plan.ignored) return { context: parent, recording: false, returned: ignore, threw: ignore };
    if (!telemetry.tracingEnabled && !telemetry.metricsEnabled) {
      return { context: traceOfItsOwn(parent), recording: false, returned: ignore, threw: ignore };
    }

    const protocol = plan.dataPlane ? 's2sp-data' : 'http';
    const startedAt = performance.now();
    const span = telemetry.tracingEnabled
      ? telemetry.tracer.startSpan(
          plan.spanName,
          {
            kind: SpanKind.SERVER,
            attributes: {
              ...serverSpanAttributes(telemetry, protocol, plan.label, callerIdOf(request)),
              [TelemetryAttributes.HTTP_METHOD]: request.method ?? 'GET',
              [TelemetryAttributes.HTTP_ROUTE]: plan.label.slice(plan.label.indexOf(' ') + 1),
            },
          },
          parent,
        )
      : undefined;
    let thrown: ErrorCode | undefined;
    let result: unknown;
    const finish = (completed: boolean): void => {
      response.off('finish', onFinish);
      response.off('close', onClose);
      const status = response.statusCode;
      const code = !completed ? 'CANCELLED' : status >= 400 ? (thrown ?? `HTTP_${status}`) : undefined;
      if (span) {
        span.setAttribute(TelemetryAttributes.HTTP_STATUS, status);
        if (code !== undefined && thrown === undefined) recordFailure(span, code);
      }
      if (plan.dataPlane)
        this.recordDataPlane(span, response, result ?? dataPlaneSummaryOf(response), completed ? status : undefined);
      telemetry.metrics.recordRequest(
        protocol,
        plan.label,
        telemetry.apiVersion,
        (performance.now() - startedAt) / 1000,
        code,
      );
      span?.end();
    };
    const onFinish = (): void => finish(true);
    const onClose = (): void => finish(response.writableFinished);
    response.once('finish', onFinish);
    response.once('close', onClose);

    return {
      context: span ? trace.setSpan(parent, span) : traceOfItsOwn(parent),
      recording: true,
      returned: (value) => {
        result = value;
      },
      threw: (error) => {
        thrown = telemetry.errorCode(error);
        if (span) recordError(span, error, thrown);
      },
    };
  }

  /** Runs `handle` as one recorded exchange (for endpoints outside Nest's route pipeline). */
  async observe(
    plan: HttpRoutePlan,
    request: IncomingMessage,
    response: ServerResponse,
    handle: () => Promise<void>,
  ): Promise<void> {
    const exchange = this.start(plan, request, response);
    try {
      await withinContext(exchange.context, handle);
    } catch (error) {
      exchange.threw(error);
      throw error;
    }
  }

  private recordDataPlane(
    span: Span | undefined,
    response: ServerResponse,
    result: unknown,
    status: number | undefined,
  ): void {
    const outcome = fetchResultOf(status);
    const served = result as { total_rows?: unknown; columns_returned?: unknown; bytes?: unknown } | undefined;
    // A streamed answer has no content-length: the data plane reports the bytes it wrote.
    const written =
      typeof served?.bytes === 'number' ? served.bytes : Number(response.getHeader('content-length') ?? 0) || 0;
    const bytes = outcome === 'ok' ? written : 0;
    this.telemetry.metrics.dataPlaneFetch(outcome, 'server', bytes);
    if (!span?.isRecording()) return;
    span.setAttribute(TelemetryAttributes.FETCH_RESULT, outcome);
    if (bytes > 0) span.setAttribute(TelemetryAttributes.BODY_BYTES, bytes);
    if (typeof served?.total_rows === 'number') span.setAttribute(TelemetryAttributes.ROWS, served.total_rows);
    // columns_returned lists _row_id first, then the body columns.
    if (Array.isArray(served?.columns_returned))
      span.setAttribute(TelemetryAttributes.BODY_COLUMNS, Math.max(0, served.columns_returned.length - 1));
  }
}

/**
 * Where a streamed data-plane answer leaves its summary (`total_rows`,
 * `columns_returned`, `bytes`) on node's response (Fastify's `reply.raw`, the
 * object recorded here under either adapter) before ending it: the response
 * finishes before the handler's return value reaches any interceptor.
 * @internal
 */
export const DATA_PLANE_SUMMARY = Symbol.for('s2sp.data-plane.summary');

function dataPlaneSummaryOf(response: ServerResponse): unknown {
  return (response as ServerResponse & { [DATA_PLANE_SUMMARY]?: unknown })[DATA_PLANE_SUMMARY];
}
