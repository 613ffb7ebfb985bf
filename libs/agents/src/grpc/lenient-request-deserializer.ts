import type { MethodDefinition } from '@grpc/grpc-js';
import type { GrpcPackageDefinition } from '@s2sp/contracts';

const UNDECODABLE = Symbol('undecodable gRPC request');

/** What a handler receives in place of a request protobuf could not decode. */
interface UndecodableRequest {
  readonly [UNDECODABLE]: string;
}

/**
 * grpc-js answers a request it cannot deserialize with INTERNAL, which a
 * client's circuit breaker counts as a fault of the agents although the
 * request is at fault (malformed bytes, or a Struct nested past the decoder's
 * recursion limit of 100 messages). Each method's deserializer is wrapped so that such a
 * request reaches the handler's guards as a marker, and
 * UndecodableRequestGuard answers INVALID_ARGUMENT. Changes the definitions in place (call it from
 * Nest's `onLoadPackageDefinition`, before the services are created).
 */
export function deserializeRequestsLeniently(definition: GrpcPackageDefinition): void {
  for (const entry of Object.values(definition)) {
    if ('format' in entry) continue; // a message or enum type, not a service
    for (const method of Object.values(entry) as MethodDefinition<unknown, unknown>[]) {
      const strict = method.requestDeserialize;
      method.requestDeserialize = (bytes: Buffer) => {
        try {
          return strict(bytes);
        } catch (error) {
          const undecodable: UndecodableRequest = {
            [UNDECODABLE]: error instanceof Error ? error.message : String(error),
          };
          return undecodable;
        }
      };
    }
  }
}

/** Why the request could not be decoded; undefined for a decoded request. */
export function undecodableReason(request: unknown): string | undefined {
  return request !== null && typeof request === 'object' && UNDECODABLE in request
    ? (request as UndecodableRequest)[UNDECODABLE]
    : undefined;
}
