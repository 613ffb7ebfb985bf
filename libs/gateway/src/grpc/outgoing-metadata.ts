import { Metadata } from '@grpc/grpc-js';
import type { JsonRpcCallContext } from '@s2sp/json-rpc';

/** Metadata key carrying the caller's id to the agents. */
export const CALLER_METADATA_KEY = 'x-caller';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Metadata of a gRPC call made on behalf of a JSON-RPC call: the caller id and
 * the narrowed Authorization (never the client's own token). The W3C trace
 * context (`traceparent` / `tracestate`) is added when the call is made, from
 * the active context (traceGrpcCall in AgentsDownstream): the gateway's client
 * span, or with tracing off the caller's own valid trace context.
 */
export function outgoingMetadata(ctx: Pick<JsonRpcCallContext, 'caller'> & { authorization?: string }): Metadata {
  const metadata = new Metadata();
  if (ctx.authorization) metadata.set('authorization', ctx.authorization);
  const caller = ctx.caller.subject;
  metadata.set(CALLER_METADATA_KEY, PRINTABLE_ASCII.test(caller) ? caller : encodeURIComponent(caller));
  return metadata;
}
