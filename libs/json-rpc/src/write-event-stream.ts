import type { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { EVENT_STREAM_MEDIA_TYPE, JsonRpcEventStream } from './json-rpc-event-stream';
import type { JsonRpcReply, JsonRpcSuccessResponse } from './json-rpc.types';
import { toJsonRpcError } from './to-json-rpc-error';

/** A single successful call whose result is a stream of events. */
export type EventStreamReply = JsonRpcSuccessResponse & { result: JsonRpcEventStream };

export function isEventStreamReply(reply: JsonRpcReply): reply is EventStreamReply {
  return (
    reply !== undefined && !Array.isArray(reply) && 'result' in reply && reply.result instanceof JsonRpcEventStream
  );
}

export interface EventStreamExchange {
  traceId: string | undefined;
  /** Aborted when the client goes away: the stream's source is told to stop. */
  clientGone: AbortSignal;
  logger: Logger;
}

/**
 * Writes the events as Server-Sent Events, each `data` a JSON-RPC response with
 * the call's id; a failure part-way is one last `error` event carrying the
 * JSON-RPC error (never a stack trace). The response ends with the stream.
 */
export async function writeEventStream(
  res: ServerResponse,
  reply: EventStreamReply,
  exchange: EventStreamExchange,
): Promise<void> {
  const stream = reply.result;
  if (res.writableEnded || res.destroyed || exchange.clientGone.aborted) {
    stream.discard();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', `${EVENT_STREAM_MEDIA_TYPE}; charset=utf-8`);
  res.setHeader('Cache-Control', 'no-store');
  // Proxies that buffer responses (nginx) would hold the events back.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const iterator = stream[Symbol.asyncIterator]();
  const stop = (): void => stream.discard();
  exchange.clientGone.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done || res.destroyed) break;
      res.write(sseEvent(next.value.event, { jsonrpc: '2.0', result: next.value.result, id: reply.id }));
    }
  } catch (exception) {
    const { error, expected } = toJsonRpcError(exception);
    if (!expected)
      exchange.logger.error('event stream failed', exception instanceof Error ? exception.stack : exception);
    if (!res.destroyed)
      res.write(sseEvent('error', { jsonrpc: '2.0', error: error.toErrorObject(exchange.traceId), id: reply.id }));
  } finally {
    exchange.clientGone.removeEventListener('abort', stop);
    await iterator.return?.().catch(() => undefined);
    if (!res.writableEnded) res.end();
  }
}

function sseEvent(event: string, data: unknown): string {
  // JSON.stringify escapes line breaks inside strings, so the data is one line.
  return `event: ${event.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(data)}\n\n`;
}
