import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import type { GrpcPackageDefinition } from '@s2sp/contracts';

/** Below this nesting of objects and lists no message can reach the decoder's recursion limit (100 messages). */
const SHALLOW_ENOUGH = 30;

/**
 * The generated encoders write any depth, but the agents' decoders stop at
 * 100 nested messages (a JSON object inside a Struct costs three). A request
 * nested that deep must fail here, as the caller's error, instead of reaching
 * the agents as a call they refuse. Each method's request serializer is
 * wrapped: a request nested deeper than SHALLOW_ENOUGH is decoded back once,
 * and if that fails the serialization fails, which grpc-js reports as
 * "Request message serialization failure" (see request-serialization-failure.ts).
 * Changes the definitions in place.
 */
export function serializeOnlyDecodableRequests(definition: GrpcPackageDefinition): GrpcPackageDefinition {
  for (const service of Object.values(definition) as ServiceDefinition[]) {
    for (const method of Object.values(service) as MethodDefinition<unknown, unknown>[]) {
      const serialize = method.requestSerialize;
      const deserialize = method.requestDeserialize;
      method.requestSerialize = (request: unknown) => {
        const bytes = serialize(request);
        if (nestedDeeperThan(request, SHALLOW_ENOUGH)) {
          try {
            deserialize(bytes);
          } catch {
            throw new Error('maximum nesting depth exceeded');
          }
        }
        return bytes;
      };
    }
  }
  return definition;
}

function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    if (nestedDeeperThan(child, limit - 1)) return true;
  }
  return false;
}
