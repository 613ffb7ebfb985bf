import type { Metadata } from '@grpc/grpc-js';
import { traceFromMetadata } from './grpc-call';
import type { v1 } from '@s2sp/contracts';

/**
 * The W3C trace context of a request, validated.
 * @public
 */
export interface TraceRecord {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  trace_flags: number;
  trace_state: string;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * The trace of a request: the message's TraceContext when it has a valid
 * trace id, else the `traceparent` metadata; undefined when neither is
 * usable. Malformed ids are dropped rather than echoed.
 */
export function traceOf(message: v1.TraceContext | undefined, metadata?: Metadata): TraceRecord | undefined {
  const traceId = message?.trace_id?.toLowerCase() ?? '';
  if (TRACE_ID.test(traceId) && !/^0+$/.test(traceId)) {
    const spanId = message?.span_id?.toLowerCase() ?? '';
    const parent = message?.parent_span_id?.toLowerCase() ?? '';
    return {
      trace_id: traceId,
      span_id: SPAN_ID.test(spanId) ? spanId : '',
      parent_span_id: SPAN_ID.test(parent) ? parent : '',
      trace_flags: Number.isInteger(message?.trace_flags) ? (message?.trace_flags as number) & 0xff : 0,
      trace_state: typeof message?.trace_state === 'string' ? message.trace_state.slice(0, 512) : '',
    };
  }
  const header = traceFromMetadata(metadata);
  if (!header) return undefined;
  return {
    trace_id: header.traceId,
    span_id: '',
    parent_span_id: header.spanId,
    trace_flags: header.flags,
    trace_state: '',
  };
}

/** s2sp.v1.TraceContext (unset when there is none). */
export function traceMessage(trace: TraceRecord | undefined): v1.TraceContext | undefined {
  return trace ? { ...trace, baggage: {} } : undefined;
}
