import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Optional, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tap, type Observable } from 'rxjs';
import { fetchResultOf } from '../metrics/telemetry-metrics';
import { SpanNames, TelemetryAttributes } from '../semantics/attributes';
import { Telemetry } from '../telemetry';
import { recordError, recordFailure, type ErrorCode } from '../tracing/errors';
import { extractFromHeaders } from '../tracing/propagation';
import { callerIdOf, serverSpanAttributes } from './server-call';

/** Routes (as declared, e.g. `/metrics`) that get neither span nor metrics. */
export const TELEMETRY_IGNORED_ROUTES = Symbol('s2sp.telemetry.ignored-routes');
export const DEFAULT_IGNORED_ROUTES: readonly string[] = ['/metrics', '/health'];

/** The S2SP data-plane route, served by libs/s2sp's DataPlaneController. */
const DATA_PLANE_ROUTE = /\/s2sp\/data\/:[^/]+$/;

interface RoutePlan {
  ignored: boolean;
  dataPlane: boolean;
  /** `POST /s2sp/data/:token`: never the URL (a data-plane URL holds the capability). */
  label: string;
  spanName: string;
}

type ExpressLikeRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

/**
 * Server side of a Nest HTTP route: the parent from `traceparent`, a SERVER
 * span named `<METHOD> <route>` (`s2sp.data.serve` for the data plane), the
 * protocol metrics with protocol `http` (`s2sp-data` for the data plane).
 * The call ends when the response is written, so status codes set by
 * exception filters and the bytes sent count. Data-plane answers add rows,
 * body columns, bytes served, s2sp_fetches_total{side="server"} and
 * s2sp_body_bytes_total. Routes in TELEMETRY_IGNORED_ROUTES pass through.
 */
@Injectable()
export class HttpTelemetryInterceptor implements NestInterceptor {
  private readonly plans = new WeakMap<object, RoutePlan>();
  private readonly ignoredRoutes: ReadonlySet<string>;

  constructor(
    private readonly telemetry: Telemetry,
    @Optional() @Inject(TELEMETRY_IGNORED_ROUTES) ignoredRoutes?: readonly string[],
  ) {
    this.ignoredRoutes = new Set(ignoredRoutes ?? DEFAULT_IGNORED_ROUTES);
  }

  intercept(executionContext: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (executionContext.getType() !== 'http') return next.handle();
    const http = executionContext.switchToHttp();
    const request = http.getRequest<ExpressLikeRequest>();
    const response = http.getResponse<ServerResponse>();
    const plan = this.planFor(executionContext, request);
    const telemetry = this.telemetry;
    if (plan.ignored) return next.handle();
    const parent = extractFromHeaders(request.headers);
    if (!telemetry.tracingEnabled && !telemetry.metricsEnabled) return context.with(parent, () => next.handle());

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
      if (plan.dataPlane) this.recordDataPlane(span, response, result, completed ? status : undefined);
      telemetry.metrics.recordRequest(protocol, plan.label, telemetry.apiVersion, (performance.now() - startedAt) / 1000, code);
      span?.end();
    };
    const onFinish = (): void => finish(true);
    const onClose = (): void => finish(response.writableFinished);
    response.once('finish', onFinish);
    response.once('close', onClose);

    const active = span ? trace.setSpan(parent, span) : parent;
    return context.with(active, () => next.handle()).pipe(
      tap({
        next: (value) => {
          result = value;
        },
        error: (error: unknown) => {
          thrown = telemetry.errorCode(error);
          if (span) recordError(span, error, thrown);
        },
      }),
    );
  }

  private recordDataPlane(span: Span | undefined, response: ServerResponse, result: unknown, status: number | undefined): void {
    const outcome = fetchResultOf(status);
    const bytes = outcome === 'ok' ? Number(response.getHeader('content-length') ?? 0) || 0 : 0;
    this.telemetry.metrics.dataPlaneFetch(outcome, 'server', bytes);
    if (!span?.isRecording()) return;
    span.setAttribute(TelemetryAttributes.FETCH_RESULT, outcome);
    if (bytes > 0) span.setAttribute(TelemetryAttributes.BODY_BYTES, bytes);
    const served = result as { total_rows?: unknown; columns_returned?: unknown } | undefined;
    if (typeof served?.total_rows === 'number') span.setAttribute(TelemetryAttributes.ROWS, served.total_rows);
    // columns_returned lists _row_id first, then the body columns.
    if (Array.isArray(served?.columns_returned)) span.setAttribute(TelemetryAttributes.BODY_COLUMNS, Math.max(0, served.columns_returned.length - 1));
  }

  /** Route facts per handler, computed on its first call. */
  private planFor(executionContext: ExecutionContext, request: ExpressLikeRequest): RoutePlan {
    const handler = executionContext.getHandler();
    let plan = this.plans.get(handler);
    if (!plan) {
      const routePath = typeof request.route?.path === 'string' ? `${request.baseUrl ?? ''}${request.route.path}` : undefined;
      const route = routePath ?? `${executionContext.getClass().name}.${handler.name}`;
      const dataPlane = routePath !== undefined && DATA_PLANE_ROUTE.test(routePath);
      const label = `${request.method ?? 'GET'} ${route}`;
      plan = {
        ignored: routePath !== undefined && this.ignoredRoutes.has(routePath),
        dataPlane,
        label,
        spanName: dataPlane ? SpanNames.DATA_PLANE_SERVE : label,
      };
      this.plans.set(handler, plan);
    }
    return plan;
  }
}
