import type { IncomingHttpHeaders } from 'node:http';

export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/**
 * One Server-Sent Event of a streamed answer: `event` names what `result` is.
 * @internal
 */
export interface JsonRpcStreamEvent {
  readonly event: string;
  readonly result: unknown;
}

/**
 * What a `streaming` @JsonRpcMethod answers: its events, sent as Server-Sent
 * Events on the POST that carried the call (JsonRpcHttpEndpoint). Each event's
 * `data` is a JSON-RPC response with the call's id, `result` the event's or, when
 * the stream fails part-way, `error`; the response ends with the stream. Errors
 * before the handler returns (authentication, scopes, params) are a plain JSON-RPC answer.
 * @internal
 */
export class JsonRpcEventStream implements AsyncIterable<JsonRpcStreamEvent> {
  /**
   * @param cancel stops the source when nobody reads any more (the client went away):
   * called while a next() may be pending, so it must make that next() settle (e.g. by cancelling the call it waits on).
   */
  constructor(
    private readonly events: AsyncIterable<JsonRpcStreamEvent>,
    private readonly cancel: () => void,
  ) {}

  [Symbol.asyncIterator](): AsyncIterator<JsonRpcStreamEvent> {
    return this.events[Symbol.asyncIterator]();
  }

  /** Stops the source; the events not read yet are dropped. */
  discard(): void {
    this.cancel();
  }
}

/** Whether the request's Accept header takes text/event-stream. */
export function acceptsEventStream(headers: Readonly<IncomingHttpHeaders>): boolean {
  const accept = headers.accept;
  if (typeof accept !== 'string') return false;
  return accept
    .split(',')
    .map((range) => range.split(';')[0].trim().toLowerCase())
    .includes(EVENT_STREAM_MEDIA_TYPE);
}
