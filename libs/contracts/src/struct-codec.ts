import type { JsonObject, JsonValue } from './json-value';
import { setOwnMember } from './own-member';
import { toJsonObject, toJsonValue } from './plain-json';

/**
 * google.protobuf.Value / Struct / ListValue as @grpc/proto-loader hands them over,
 * for clients that load the protos at run time (the apps use the generated codecs).
 * The well-known types are bundled in protobufjs with camelCase field names, so
 * keepCase does not apply to them: it is `stringValue`, not `string_value`.
 * Encoding a snake_case object would silently drop the field; always build them here.
 * @public
 */
export interface ProtoValue {
  nullValue?: 'NULL_VALUE' | 0 | null;
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: ProtoStruct | null;
  listValue?: ProtoListValue | null;
  /** Set by proto-loader's `oneofs: true`: which member above is present. */
  kind?: string;
}

/** @public */
export interface ProtoStruct {
  fields?: Record<string, ProtoValue> | null;
}

/** @public */
export interface ProtoListValue {
  values?: ProtoValue[] | null;
}

const KINDS = ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'] as const;
type Kind = (typeof KINDS)[number];
const SNAKE: Record<Kind, string> = {
  nullValue: 'null_value',
  numberValue: 'number_value',
  stringValue: 'string_value',
  boolValue: 'bool_value',
  structValue: 'struct_value',
  listValue: 'list_value',
};

/**
 * JSON object -> google.protobuf.Struct. Follows JSON.stringify for undefined and toJSON().
 * @public
 */
export function toStruct(object: Record<string, unknown>): ProtoStruct {
  return protoStructOf(toJsonObject(object));
}

/** JSON value -> google.protobuf.Value. Throws TypeError for what JSON cannot carry. */
export function toValue(value: unknown): ProtoValue {
  return protoValueOf(toJsonValue(value));
}

/**
 * google.protobuf.Struct -> JSON object; null/undefined give {}.
 * @public
 */
export function fromStruct(struct: ProtoStruct | null | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(struct?.fields ?? {})) setOwnMember(out, key, fromValue(value));
  return out;
}

/** google.protobuf.Value -> JSON value; accepts camelCase and snake_case member names. */
export function fromValue(value: ProtoValue | null | undefined): JsonValue {
  if (value == null) return null;
  const record = value as Record<string, unknown>;
  const kind = presentKind(record);
  if (kind === undefined) return null;
  const member = record[kind] ?? record[SNAKE[kind]];
  switch (kind) {
    case 'nullValue':
      return null;
    case 'numberValue':
      return Number(member);
    case 'stringValue':
      return String(member);
    case 'boolValue':
      return Boolean(member);
    case 'structValue':
      return fromStruct(member as ProtoStruct | null);
    case 'listValue':
      return ((member as ProtoListValue | null)?.values ?? []).map((item) => fromValue(item));
  }
}

function presentKind(record: Record<string, unknown>): Kind | undefined {
  const declared = typeof record.kind === 'string' ? record.kind : undefined;
  if (declared !== undefined) {
    const named = KINDS.find((kind) => kind === declared || SNAKE[kind] === declared);
    if (named) return named;
  }
  return KINDS.find((kind) => record[kind] !== undefined || record[SNAKE[kind]] !== undefined);
}

function protoValueOf(json: JsonValue): ProtoValue {
  if (json === null) return { nullValue: 'NULL_VALUE' };
  switch (typeof json) {
    case 'boolean':
      return { boolValue: json };
    case 'string':
      return { stringValue: json };
    case 'number':
      return { numberValue: json };
    default:
      return Array.isArray(json)
        ? { listValue: { values: json.map(protoValueOf) } }
        : { structValue: protoStructOf(json) };
  }
}

function protoStructOf(object: JsonObject): ProtoStruct {
  const fields: Record<string, ProtoValue> = {};
  for (const [key, item] of Object.entries(object)) setOwnMember(fields, key, protoValueOf(item));
  return { fields };
}
