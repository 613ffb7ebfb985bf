import { performance } from 'node:perf_hooks';
import type { CallHandler } from '@nestjs/common';
import { SpanKind, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { tap, type Observable } from 'rxjs';
import { callerFrom } from '@s2sp/auth';
import type { TelemetryProtocol } from '../semantics/attributes';
import { TelemetryAttributes } from '../semantics/attributes';
import { recordError, recordFailure, type ErrorCode } from '../tracing/errors';
import { traceOfItsOwn } from '../tracing/trace-of-its-own';
import { withinContext } from '../tracing/within-context';
import type { Telemetry } from '../telemetry';

/**
 * Code given to a call whose subscriber went away before it finished (client cancelled, deadline).
 * @public
 */
export const CANCELLED = 'CANCELLED';

/** One server-side call as an interceptor sees it. */
export interface ServerCall {
  protocol: TelemetryProtocol;
  /** The `method` metric label and `s2sp.method` attribute. */
  method: string;
  spanName: string;
  /** Remote parent, from the wire (ROOT_CONTEXT when the caller sent none). */
  parent: Context;
  /** Built only when tracing is on (see {@link serverSpanAttributes}). */
  attributes?: (telemetry: Telemetry) => Attributes;
  /** Looks at each emitted value: a code when the value is an error answer (e.g. an MCP tool error result). */
  inspect?: (value: unknown, span: Span | undefined) => ErrorCode | undefined;
  /** Extra recording once the call ended (duration in seconds, code when failed). */
  onEnd?: (durationSeconds: number, errorCode: ErrorCode | undefined) => void;
}

/**
 * Runs `next` as the server side of a call: the remote parent made active, a
 * SERVER span around the handler (tracing on), and protocol_requests_total /
 * protocol_request_duration_seconds / protocol_errors_total (metrics on).
 * Without a span the caller's trace, or a new one (traceOfItsOwn), is made active.
 */
export function observeServerCall(telemetry: Telemetry, call: ServerCall, next: CallHandler): Observable<unknown> {
  if (!telemetry.tracingEnabled && !telemetry.metricsEnabled) {
    return withinContext(traceOfItsOwn(call.parent), () => next.handle());
  }
  const startedAt = performance.now();
  const span = telemetry.tracingEnabled
    ? telemetry.tracer.startSpan(
        call.spanName,
        { kind: SpanKind.SERVER, attributes: call.attributes?.(telemetry) },
        call.parent,
      )
    : undefined;
  const active = span ? trace.setSpan(call.parent, span) : traceOfItsOwn(call.parent);
  // next.handle() binds the handler to the async context it is called in (Nest's interceptor consumer).
  const source = withinContext(active, () => next.handle());
  let failure: ErrorCode | undefined;
  let answered = false;
  let ended = false;
  const end = (code: ErrorCode | undefined): void => {
    if (ended) return;
    ended = true;
    const seconds = (performance.now() - startedAt) / 1000;
    telemetry.metrics.recordRequest(call.protocol, call.method, telemetry.apiVersion, seconds, code);
    call.onEnd?.(seconds, code);
    span?.end();
  };
  return source.pipe(
    tap({
      next: (value) => {
        answered = true;
        const code = call.inspect?.(value, span);
        if (code !== undefined) {
          failure = code;
          if (span) recordFailure(span, code);
        }
      },
      error: (error: unknown) => {
        const code = telemetry.errorCode(error);
        if (span) recordError(span, error, code);
        end(code);
      },
      complete: () => end(failure),
      // Single-answer consumers (firstValueFrom, as mcp-nest does) unsubscribe after the
      // first value instead of waiting for completion: that is an answer, not a cancellation.
      unsubscribe: () => {
        if (answered) {
          end(failure);
          return;
        }
        if (span) recordFailure(span, CANCELLED, 'cancelled before an answer');
        end(CANCELLED);
      },
    }),
  );
}

/** The attributes every server span has: protocol, method, API version, and the caller id when the caller is known. */
export function serverSpanAttributes(
  telemetry: Telemetry,
  protocol: TelemetryProtocol,
  method: string,
  callerId: string | undefined,
): Attributes {
  const attributes: Attributes = {
    [TelemetryAttributes.PROTOCOL]: protocol,
    [TelemetryAttributes.METHOD]: method,
    [TelemetryAttributes.VERSION]: telemetry.apiVersion,
  };
  if (callerId !== undefined) attributes[TelemetryAttributes.CALLER_ID] = callerId;
  return attributes;
}

/** The verified caller of a call (client id, else subject) as libs/auth left it on `carrier`; never a token. */
export function callerIdOf(carrier: unknown): string | undefined {
  const identity = callerFrom(carrier);
  return identity ? (identity.clientId ?? identity.subject) : undefined;
}

/** Per-key cache of derived names (span names, labels): computed once per method, not per call. */
export class NameCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly derive: (key: string) => T,
    private readonly limit = 1_000,
  ) {}

  get(key: string): T {
    let value = this.entries.get(key);
    if (value === undefined) {
      value = this.derive(key);
      if (this.entries.size < this.limit) this.entries.set(key, value);
    }
    return value;
  }
}
