import { v1 } from '@s2sp/contracts';
import type { JsonRpcCallContext } from '@s2sp/json-rpc';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The caller as the agents' AuthContext. */
export function authContextOf(ctx: Pick<JsonRpcCallContext, 'caller'>): v1.AuthContext {
  return v1.AuthContext.create({ subject: ctx.caller.subject, scopes: [...ctx.caller.scopes] });
}

/**
 * The W3C trace context of the incoming request as a TraceContext message
 * (trace_id, the client's span as span_id, flags, tracestate); undefined
 * when the request carried no valid traceparent.
 */
export function traceContextOf(ctx: Pick<JsonRpcCallContext, 'headers'>): v1.TraceContext | undefined {
  const header = ctx.headers['traceparent'];
  const match = TRACEPARENT.exec((Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? '');
  if (!match || /^0+$/.test(match[2])) return undefined;
  const state = ctx.headers['tracestate'];
  return v1.TraceContext.create({
    trace_id: match[2],
    span_id: match[3],
    trace_flags: parseInt(match[4], 16),
    trace_state: (Array.isArray(state) ? state[0] : state)?.trim() ?? '',
  });
}
