import type { IncomingHttpHeaders } from 'node:http';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const PLAIN_TRACE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The trace id of a request, as error `data.trace_id` names it: the trace the
 * request runs in — with tracing on, the span the gateway started for it (a
 * new trace when the caller sent no `traceparent`); with tracing off, the
 * caller's `traceparent` or the request's own trace, made active by the
 * telemetry — else what the caller sent (`traceparent`, then a sane `x-trace-id`).
 */
export function extractTraceId(headers: Readonly<IncomingHttpHeaders>): string | undefined {
  return activeTraceId() ?? callerTraceId(headers);
}

function activeTraceId(): string | undefined {
  const spanContext = trace.getSpanContext(context.active());
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** The trace id the caller sent: W3C `traceparent` first, else a sane `x-trace-id`. */
export function callerTraceId(headers: Readonly<IncomingHttpHeaders>): string | undefined {
  const traceparent = single(headers['traceparent'])?.trim().toLowerCase();
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (match && !/^0+$/.test(match[1])) return match[1];
  const plain = single(headers['x-trace-id'])?.trim();
  return plain && PLAIN_TRACE_ID.test(plain) ? plain : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
