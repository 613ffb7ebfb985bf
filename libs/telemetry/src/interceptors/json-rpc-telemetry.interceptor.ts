import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { context as otelContext, type Context } from '@opentelemetry/api';
import type { Observable } from 'rxjs';
import { SpanNames, TelemetryAttributes } from '../semantics/attributes';
import { Telemetry } from '../telemetry';
import { extractFromHeaders, hasValidSpan } from '../tracing/propagation';
import { callerIdOf, NameCache, observeServerCall, serverSpanAttributes } from './server-call';

/**
 * Context type of the gateway's JSON-RPC engine (`context.getType()`).
 * @public
 */
export const JSON_RPC_CONTEXT = 'json-rpc';

/** What this interceptor reads of the gateway's JsonRpcCallContext (2nd handler argument). */
interface JsonRpcCallLike {
  readonly method: string;
  readonly headers?: Readonly<IncomingHttpHeaders>;
  readonly caller?: { readonly authenticated?: boolean; readonly subject?: string };
}

/**
 * Server side of a JSON-RPC call at the gateway: the parent is the span of
 * the HTTP request it came in (`POST /rpc`, when that route is traced), else
 * the request's `traceparent`; a `jsonrpc.<method>` span, and the protocol
 * metrics with protocol `json-rpc`. Other context types pass through.
 * Runs after guards: a call refused by authentication is not seen here.
 * @public
 */
@Injectable()
export class JsonRpcTelemetryInterceptor implements NestInterceptor {
  private readonly spanNames = new NameCache(SpanNames.jsonRpc);

  constructor(private readonly telemetry: Telemetry) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType<string>() !== JSON_RPC_CONTEXT) return next.handle();
    const call = context.getArgByIndex<JsonRpcCallLike | undefined>(1);
    const method = typeof call?.method === 'string' ? call.method : 'unknown';
    return observeServerCall(
      this.telemetry,
      {
        protocol: 'json-rpc',
        method,
        spanName: this.spanNames.get(method),
        parent: jsonRpcParent(call),
        attributes: (telemetry) => ({
          ...serverSpanAttributes(telemetry, 'json-rpc', method, jsonRpcCallerId(call)),
          [TelemetryAttributes.RPC_SYSTEM]: 'jsonrpc',
          [TelemetryAttributes.RPC_METHOD]: method,
        }),
      },
      next,
    );
  }
}

function jsonRpcCallerId(call: JsonRpcCallLike | undefined): string | undefined {
  return callerIdOf(call) ?? (call?.caller?.authenticated ? call.caller.subject : undefined);
}

/** The HTTP request's span when one is active (one trace per HTTP request, batch included), else the caller's `traceparent`. */
function jsonRpcParent(call: JsonRpcCallLike | undefined): Context {
  const active = otelContext.active();
  return hasValidSpan(active) ? active : extractFromHeaders(call?.headers);
}
