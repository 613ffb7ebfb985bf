import { SetMetadata } from '@nestjs/common';

export const JSON_RPC_METHOD_METADATA = 's2sp:json-rpc-method';

/**
 * How array ("by-position") params map onto the params DTO.
 * @public
 */
export type PositionalParams =
  /** Element i becomes property names[i]; extra elements are an error. */
  | readonly string[]
  /** The whole array becomes one array-typed property, e.g. sum(1, 2, 4) -> { values: [1, 2, 4] }. */
  | { readonly rest: string };

/**
 * A JSON Schema, for results that are not described by a class.
 * @public
 */
export type JsonSchemaObject = Record<string, unknown>;

/** @public */
export interface JsonRpcMethodOptions {
  /**
   * class-validator DTO for params. Named params are transformed into it and validated
   * (unknown properties are rejected); invalid params give -32602 naming each field.
   * Without it, the handler receives params as sent (array, object or undefined).
   */
  params?: new (...args: any[]) => object;
  /** Accept array params too, mapped onto the DTO's properties. Without it a DTO method is by-name only. */
  positional?: PositionalParams;
  /** Result description for rpc.discover: a DTO class or a JSON Schema. */
  result?: (new (...args: any[]) => object) | JsonSchemaObject;
  summary?: string;
  description?: string;
  /** Safe to retry: no side effects beyond the first call. Published in rpc.discover. */
  idempotent?: boolean;
  /** Published in rpc.discover. */
  deprecated?: boolean;
  /**
   * The handler answers with a JsonRpcEventStream, sent as Server-Sent Events: the
   * method may be called only on its own (not in a batch, not as a notification) by a
   * request that accepts text/event-stream.
   */
  streaming?: boolean;
}

/** @internal */
export interface JsonRpcMethodMetadata extends JsonRpcMethodOptions {
  name: string;
}

/**
 * Exposes a provider method as JSON-RPC method `name`. The method is called as
 * `(params, ctx: JsonRpcCallContext)`; its return value is the result. Guards and
 * interceptors declared with @UseGuards / @UseInterceptors apply (context type 'json-rpc').
 * @public
 */
export function JsonRpcMethod(name: string, options: JsonRpcMethodOptions = {}): MethodDecorator {
  if (!name || name.startsWith('rpc.')) {
    throw new Error(`@JsonRpcMethod: "${name}" is not allowed (empty, or in the reserved rpc. namespace)`);
  }
  if (options.positional && !options.params) {
    throw new Error(`@JsonRpcMethod("${name}"): positional needs a params DTO to map onto`);
  }
  return SetMetadata<string, JsonRpcMethodMetadata>(JSON_RPC_METHOD_METADATA, { ...options, name });
}
