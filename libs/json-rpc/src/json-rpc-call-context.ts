import type { IncomingHttpHeaders } from 'node:http';
import type { JsonRpcId } from './json-rpc.types';

/**
 * Who is calling. A placeholder until authentication is plugged in: every caller is anonymous.
 * @public
 */
export interface JsonRpcCaller {
  readonly authenticated: boolean;
  readonly subject: string;
  readonly scopes: readonly string[];
}

export const ANONYMOUS_CALLER: JsonRpcCaller = Object.freeze({
  authenticated: false,
  subject: 'anonymous',
  scopes: Object.freeze([]),
});

/**
 * The second argument of every @JsonRpcMethod handler.
 * @public
 */
export interface JsonRpcCallContext {
  readonly method: string;
  /** undefined for a notification. */
  readonly id: JsonRpcId | undefined;
  readonly isNotification: boolean;
  /** Headers of the HTTP request that carried the call (lower-case names). */
  readonly headers: Readonly<IncomingHttpHeaders>;
  readonly caller: JsonRpcCaller;
  /** Network address of the client (the TCP peer), when the transport knows it. */
  readonly remoteAddress?: string;
  /** Aborted when the deadline passes or the client goes away; pass it on to gRPC / fetch calls. */
  readonly signal: AbortSignal;
  /** Absolute deadline, ms since the epoch. */
  readonly deadline: number;
  /** W3C trace id of the incoming request, when it carried one. */
  readonly traceId: string | undefined;
  /** Milliseconds left before the deadline (never negative). */
  remainingMs(): number;
}

/** What the transport knows about the exchange that carried one or more calls. */
export interface JsonRpcTransportContext {
  readonly headers: Readonly<IncomingHttpHeaders>;
  readonly caller: JsonRpcCaller;
  /** Network address of the client (the TCP peer), when known. */
  readonly remoteAddress?: string;
  /** Aborted when the client disconnects before the reply is sent. */
  readonly signal?: AbortSignal;
  /** When the exchange arrived (ms epoch); deadlines are computed from it. */
  readonly receivedAt: number;
}
