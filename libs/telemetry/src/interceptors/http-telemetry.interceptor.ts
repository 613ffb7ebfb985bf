import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { declaredRouteOf, nodeRequestOf, nodeResponseOf } from '@s2sp/platform/internal';
import { tap, type Observable } from 'rxjs';
import { HttpExchangeTelemetry, type HttpRoutePlan } from '../http/http-exchange-telemetry';
import { withinContext } from '../tracing/within-context';

/**
 * Nest HTTP routes as recorded by {@link HttpExchangeTelemetry}: span, metrics,
 * data-plane facts. Routes in TELEMETRY_IGNORED_ROUTES pass through.
 * @public
 */
@Injectable()
export class HttpTelemetryInterceptor implements NestInterceptor {
  private readonly plans = new WeakMap<object, HttpRoutePlan>();

  constructor(private readonly exchanges: HttpExchangeTelemetry) {}

  intercept(executionContext: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (executionContext.getType() !== 'http') return next.handle();
    const http = executionContext.switchToHttp();
    const request = http.getRequest<unknown>();
    // Node's objects under either adapter: the caller the auth middleware verified is on node's request.
    const exchange = this.exchanges.start(
      this.planFor(executionContext, request),
      nodeRequestOf(request),
      nodeResponseOf(http.getResponse()),
    );
    const handled = withinContext(exchange.context, () => next.handle());
    if (!exchange.recording) return handled;
    return handled.pipe(tap({ next: exchange.returned, error: exchange.threw }));
  }

  /** Route facts per handler, computed on its first call. */
  private planFor(executionContext: ExecutionContext, request: unknown): HttpRoutePlan {
    const handler = executionContext.getHandler();
    let plan = this.plans.get(handler);
    if (!plan) {
      plan = this.exchanges.planFor(
        nodeRequestOf(request).method ?? 'GET',
        declaredRouteOf(request),
        `${executionContext.getClass().name}.${handler.name}`,
      );
      this.plans.set(handler, plan);
    }
    return plan;
  }
}
