/**
 * The subset of JSON Schema (draft-07, as OpenRPC 1.3 uses) that the DTO converter emits.
 * @public
 */
export interface JsonSchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';
  $ref?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  pattern?: string;
  format?: string;
  title?: string;
  description?: string;
  [extension: `x-${string}`]: unknown;
}
