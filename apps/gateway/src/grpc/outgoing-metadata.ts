import { Metadata } from '@grpc/grpc-js';
import type { JsonRpcCallContext } from '../jsonrpc';

/** Metadata key carrying the caller's id to the agents. */
export const CALLER_METADATA_KEY = 'x-caller';

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const MAX_TRACESTATE_LENGTH = 512;

/**
 * Metadata of a gRPC call made on behalf of a JSON-RPC call: the W3C trace
 * context headers when the client sent valid ones, the caller id, and the
 * narrowed Authorization (never the client's own token).
 */
export function outgoingMetadata(ctx: Pick<JsonRpcCallContext, 'headers' | 'caller'> & { authorization?: string }): Metadata {
  const metadata = new Metadata();
  if (ctx.authorization) metadata.set('authorization', ctx.authorization);
  const traceparent = single(ctx.headers['traceparent'])?.trim().toLowerCase();
  if (traceparent && TRACEPARENT.test(traceparent)) {
    metadata.set('traceparent', traceparent);
    const tracestate = single(ctx.headers['tracestate'])?.trim();
    if (tracestate && tracestate.length <= MAX_TRACESTATE_LENGTH && PRINTABLE_ASCII.test(tracestate)) {
      metadata.set('tracestate', tracestate);
    }
  }
  const caller = ctx.caller.subject;
  metadata.set(CALLER_METADATA_KEY, PRINTABLE_ASCII.test(caller) ? caller : encodeURIComponent(caller));
  return metadata;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
