import type * as grpc from '@grpc/grpc-js';
import type { UnaryCallOptions } from './unary-call';

type ServerStreamMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
) => grpc.ClientReadableStream<unknown>;

/**
 * One server-streaming call on a @grpc/grpc-js client as an async iterable of
 * its messages; the stream's error (a ServiceError as is) is thrown from the
 * iteration. The call is cancelled when the signal aborts, or when the
 * iteration stops early.
 */
export async function* serverStreamCall<Message>(
  client: grpc.Client,
  method: string,
  request: unknown,
  options: UnaryCallOptions,
): AsyncGenerator<Message> {
  const invoke = (client as unknown as Record<string, ServerStreamMethod | undefined>)[method];
  if (typeof invoke !== 'function') throw new TypeError(`gRPC client has no method ${method}`);
  const call = invoke.call(client, request, options.metadata, { deadline: options.deadline });
  const onAbort = (): void => call.cancel();
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // A ClientReadableStream is an object-mode Readable: iterating it yields the messages and throws its error.
    for await (const message of call) yield message as Message;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    call.cancel();
  }
}
