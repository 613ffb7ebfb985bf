import { randomBytes } from 'node:crypto';
import { isSpanContextValid, trace, TraceFlags, type Context } from '@opentelemetry/api';

/**
 * The context a server call runs in when no span is recorded for it: the
 * caller's trace when it sent one, else a new trace of its own. Log lines then
 * carry `trace_id`/`span_id`, errors name the trace (`error.data.trace_id`),
 * and the ids travel on to the next hops, whether or not spans are exported.
 *
 * The new trace is marked sampled: a downstream hop that does export spans
 * (ParentBased sampling) keeps recording, as it would had it started the trace.
 */
export function traceOfItsOwn(parent: Context): Context {
  const remote = trace.getSpanContext(parent);
  if (remote && isSpanContextValid(remote)) return parent;
  return trace.setSpanContext(parent, {
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
    traceFlags: TraceFlags.SAMPLED,
  });
}
