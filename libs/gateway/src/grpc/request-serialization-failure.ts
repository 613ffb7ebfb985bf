import { status as GrpcStatus } from '@grpc/grpc-js';
import { isGrpcServiceError } from '@s2sp/json-rpc/internal';

/** The prefix grpc-js gives the INTERNAL status it makes up itself when a request cannot be encoded. */
const SERIALIZATION_FAILURE = 'Request message serialization failure';

/**
 * The request never left the gateway: protobuf could not encode it (e.g. a
 * Struct nested past its recursion limit). grpc-js reports that as INTERNAL,
 * like a fault of the agents, but it is the caller's params, so it must
 * neither count against the circuit breaker nor be answered as -32603.
 */
export function isRequestSerializationFailure(error: unknown): boolean {
  return (
    isGrpcServiceError(error) &&
    error.code === GrpcStatus.INTERNAL &&
    (error.details ?? '').startsWith(SERIALIZATION_FAILURE)
  );
}
