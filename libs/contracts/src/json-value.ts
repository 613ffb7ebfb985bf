/**
 * A value that JSON can represent exactly.
 * @public
 */
export type JsonPrimitive = null | boolean | number | string;
/** @public */
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
/** @public */
export interface JsonObject {
  [key: string]: JsonValue;
}
