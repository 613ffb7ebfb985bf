import { Inject, Injectable } from '@nestjs/common';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type * as grpc from '@grpc/grpc-js';
import { Telemetry, traceGrpcCall } from '@s2sp/telemetry';
import { type JsonRpcCallContext } from '@s2sp/json-rpc';
import { isGrpcServiceError } from '@s2sp/json-rpc/internal';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { AgentsCircuitBreaker } from './agents-circuit-breaker';
import { agentsCallError } from './agents-error';
import { grpcDeadlineFor } from './grpc-deadline';
import { outgoingMetadata } from './outgoing-metadata';
import { serverStreamCall } from './server-stream-call';
import { unaryCall } from './unary-call';

/**
 * The JSON-RPC call a gRPC call is made for: its deadline, abort signal,
 * headers and caller, and the Authorization the gRPC call carries (the
 * caller's token narrowed for the agents; absent only for health checks).
 */
export type CallOrigin = Pick<JsonRpcCallContext, 'deadline' | 'signal' | 'headers' | 'caller'> & {
  authorization?: string;
};

/** Receives the response headers of a call (see unaryCall). */
export type HeadersListener = (headers: grpc.Metadata) => void;

/**
 * Makes one unary call to the agents on behalf of a JSON-RPC call: deadline =
 * the call's remaining budget, cancelled when the call aborts, trace context
 * and caller id as metadata, through the circuit breaker; failures come out
 * as JsonRpcErrors. Each call is a `grpc.<Service>/<Method>` client span
 * whose context travels as `traceparent` metadata.
 */
@Injectable()
export class AgentsDownstream {
  constructor(
    private readonly breaker: AgentsCircuitBreaker,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly telemetry: Telemetry,
  ) {}

  async call<Response>(
    client: grpc.Client,
    method: string,
    request: unknown,
    origin: CallOrigin,
    onHeaders?: HeadersListener,
  ): Promise<Response> {
    try {
      return await this.send<Response>(client, method, request, origin, onHeaders);
    } catch (error) {
      throw agentsCallError(error, origin.signal);
    }
  }

  /**
   * A method that agents of an older contract do not have: their UNIMPLEMENTED
   * resolves to undefined (a status the circuit breaker does not count).
   */
  async callIfImplemented<Response>(
    client: grpc.Client,
    method: string,
    request: unknown,
    origin: CallOrigin,
    onHeaders?: HeadersListener,
  ): Promise<Response | undefined> {
    try {
      return await this.send<Response>(client, method, request, origin, onHeaders);
    } catch (error) {
      if (isGrpcServiceError(error) && error.code === GrpcStatus.UNIMPLEMENTED) return undefined;
      throw agentsCallError(error, origin.signal);
    }
  }

  /**
   * A server-streaming call, its messages as they come; failures come out as
   * JsonRpcErrors. Not through the circuit breaker, which judges calls by how
   * they end while a stream may rightly last as long as its deadline: a caller
   * opens one after a unary call that did go through it (agent.streamTask
   * after GetTask). Cancelled when origin.signal aborts. Its client span
   * covers opening the call (the trace context it sends), not the whole stream.
   */
  async *stream<Message>(
    client: grpc.Client,
    method: string,
    request: unknown,
    origin: CallOrigin,
  ): AsyncGenerator<Message> {
    const deadline = grpcDeadlineFor(origin, this.config.grpc);
    const metadata = await traceGrpcCall(
      this.telemetry,
      serviceNameOf(client),
      method,
      outgoingMetadata(origin),
      async (traced) => traced,
    );
    try {
      yield* serverStreamCall<Message>(client, method, request, { deadline, metadata, signal: origin.signal });
    } catch (error) {
      throw agentsCallError(error, origin.signal);
    }
  }

  private send<Response>(
    client: grpc.Client,
    method: string,
    request: unknown,
    origin: CallOrigin,
    onHeaders: HeadersListener | undefined,
  ): Promise<Response> {
    if (origin.signal.aborted) return Promise.reject(origin.signal.reason);
    const deadline = grpcDeadlineFor(origin, this.config.grpc);
    const metadata = outgoingMetadata(origin);
    return traceGrpcCall(this.telemetry, serviceNameOf(client), method, metadata, (traced) =>
      this.breaker.run(
        () =>
          unaryCall<Response>(client, method, request, {
            deadline,
            metadata: traced,
            signal: origin.signal,
            onHeaders,
          }),
        deadline - Date.now(),
      ),
    );
  }
}

/** `s2sp.v1.AgentService`: the full service name grpc-js gave the client's constructor. */
function serviceNameOf(client: grpc.Client): string {
  return (client.constructor as { serviceName?: string }).serviceName ?? client.constructor.name;
}
