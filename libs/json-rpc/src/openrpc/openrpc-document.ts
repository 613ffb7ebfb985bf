import { DEADLINE_PARAM } from '../call-deadline';
import type { JsonRpcMethodMetadata } from '../json-rpc-method.decorator';
import { SchemaComponents, dtoProperties, classToJsonSchema } from './class-validator-json-schema';
import type { JsonSchema } from './json-schema';
import type { OpenRpcInfo } from './openrpc-info';

export type { OpenRpcInfo };

export const OPENRPC_VERSION = '1.3.2';

/** @internal */
export interface OpenRpcContentDescriptor {
  name: string;
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

/** @internal */
export interface OpenRpcMethod {
  name: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  paramStructure: 'by-name' | 'by-position' | 'either';
  params: OpenRpcContentDescriptor[];
  result: OpenRpcContentDescriptor;
  /** Whether a retry is safe (S2SP extension). */
  'x-idempotent'?: boolean;
  /** For positional {rest}: the whole params array is this one array param (S2SP extension). */
  'x-positional-rest'?: string;
}

/** @internal */
export interface OpenRpcDocument {
  openrpc: string;
  info: OpenRpcInfo;
  methods: OpenRpcMethod[];
  components: { schemas: Record<string, JsonSchema> };
}

const DEADLINE_DESCRIPTOR: OpenRpcContentDescriptor = {
  name: DEADLINE_PARAM,
  required: false,
  description: 'Absolute deadline, ms since the epoch; consumed by the gateway (same as the X-Deadline-Ms header)',
  schema: { type: 'integer', minimum: 0 },
};

/** OpenRPC 1.3 document generated from the method registry and its DTO classes. */
export function buildOpenRpcDocument(methods: readonly JsonRpcMethodMetadata[], info: OpenRpcInfo): OpenRpcDocument {
  const components = new SchemaComponents();
  const described = [...methods]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((method) => describeMethod(method, components));
  return { openrpc: OPENRPC_VERSION, info, methods: described, components: { schemas: components.schemas } };
}

function describeMethod(method: JsonRpcMethodMetadata, components: SchemaComponents): OpenRpcMethod {
  const described: OpenRpcMethod = {
    name: method.name,
    ...(method.summary ? { summary: method.summary } : {}),
    ...(method.description ? { description: method.description } : {}),
    ...(method.deprecated ? { deprecated: true } : {}),
    paramStructure: 'either',
    params: [],
    result: { name: 'result', schema: resultSchema(method, components) },
    ...(method.idempotent !== undefined ? { 'x-idempotent': method.idempotent } : {}),
  };
  if (!method.params) return described;

  const properties = dtoProperties(method.params, components);
  const positional = method.positional;
  const order = Array.isArray(positional) ? (positional as readonly string[]) : [];
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  described.params = [...properties]
    .sort((a, b) => rank(a.name) - rank(b.name))
    .map((property) => ({ name: property.name, required: property.required, schema: property.schema }));
  if (!positional) {
    described.paramStructure = 'by-name';
    described.params.push(DEADLINE_DESCRIPTOR);
  } else if (!Array.isArray(positional)) {
    described['x-positional-rest'] = (positional as { rest: string }).rest;
  }
  return described;
}

function resultSchema(method: JsonRpcMethodMetadata, components: SchemaComponents): JsonSchema {
  if (!method.result) return {};
  if (typeof method.result === 'function') return classToJsonSchema(method.result, components);
  return method.result;
}
