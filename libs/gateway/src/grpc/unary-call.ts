import type * as grpc from '@grpc/grpc-js';

export interface UnaryCallOptions {
  /** Absolute gRPC deadline, ms since the epoch. */
  deadline: number;
  metadata: grpc.Metadata;
  /** Cancels the call (the server sees CANCELLED) when it aborts. */
  signal?: AbortSignal;
  /** Called with the response headers the server sent, if it sent any. */
  onHeaders?: (headers: grpc.Metadata) => void;
}

type UnaryMethod = (
  request: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response: unknown) => void,
) => grpc.ClientUnaryCall;

/** One unary call on a @grpc/grpc-js client as a promise; rejects with the ServiceError as is. */
export function unaryCall<Response>(
  client: grpc.Client,
  method: string,
  request: unknown,
  options: UnaryCallOptions,
): Promise<Response> {
  const invoke = (client as unknown as Record<string, UnaryMethod | undefined>)[method];
  if (typeof invoke !== 'function') return Promise.reject(new TypeError(`gRPC client has no method ${method}`));
  return new Promise<Response>((resolve, reject) => {
    let onAbort: (() => void) | undefined;
    const call = invoke.call(client, request, options.metadata, { deadline: options.deadline }, (error, response) => {
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(response as Response);
    });
    if (options.onHeaders) call.on('metadata', options.onHeaders);
    if (options.signal) {
      onAbort = () => call.cancel();
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}
