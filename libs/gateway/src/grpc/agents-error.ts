import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { CircuitOpenError } from '@s2sp/platform/internal';
import { GRPC_ERROR_METADATA, JsonRpcError, RECOVERY_HINT, grpcStatusToJsonRpc } from '@s2sp/json-rpc';
import { JsonRpcErrorCode, isGrpcServiceError } from '@s2sp/json-rpc/internal';
import { isRequestSerializationFailure } from './request-serialization-failure';

/** data.hop of a deadline that ran out on the gateway -> agents gRPC call itself. */
export const GRPC_HOP = 'grpc';

/**
 * What the client sees when a call to the agents fails:
 * - circuit open: -32001 "agents unavailable" with data.retry_after (seconds), no network call made;
 * - a gRPC status: grpcStatusToJsonRpc (trailers refine it); DEADLINE_EXCEEDED without
 *   a hop trailer ran out on the gRPC hop, so data.hop is "grpc";
 * - protobuf could not encode the request (it never left): -32602;
 * - the call was cancelled because the JSON-RPC call was aborted: the abort reason.
 * Anything else is returned unchanged (the engine maps it to -32603).
 */
export function agentsCallError(error: unknown, signal?: AbortSignal): unknown {
  if (error instanceof CircuitOpenError) {
    return new JsonRpcError(JsonRpcErrorCode.UPSTREAM_UNAVAILABLE, 'agents unavailable', {
      downstream: 'agents',
      circuit: 'open',
      retry_after: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
      recovery_hint: RECOVERY_HINT.RETRY_AFTER,
    });
  }
  if (!isGrpcServiceError(error)) return error;
  if (isRequestSerializationFailure(error)) {
    const reason = `params cannot be encoded for the agents (${(error.details ?? '').replace(/^[^:]*:\s*/, '')})`;
    return JsonRpcError.invalidParams(
      [{ path: '', constraints: { protobufEncoding: reason } }],
      `Invalid params: ${reason}`,
    );
  }
  if (error.code === GrpcStatus.CANCELLED && signal?.aborted) return signal.reason;
  let metadata = error.metadata ?? new Metadata();
  if (error.code === GrpcStatus.DEADLINE_EXCEEDED && metadata.get(GRPC_ERROR_METADATA.DEADLINE_HOP).length === 0) {
    metadata = metadata.clone();
    metadata.set(GRPC_ERROR_METADATA.DEADLINE_HOP, GRPC_HOP);
  }
  return grpcStatusToJsonRpc(error.code, error.details, metadata);
}
