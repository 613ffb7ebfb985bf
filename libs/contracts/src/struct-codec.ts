import type { JsonObject, JsonValue } from './json-value';

/**
 * google.protobuf.Value / Struct / ListValue as @grpc/proto-loader hands them over.
 * The well-known types are bundled in protobufjs with camelCase field names, so
 * keepCase does not apply to them: it is `stringValue`, not `string_value`.
 * Encoding a snake_case object would silently drop the field; always build them here.
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

export interface ProtoStruct {
  fields?: Record<string, ProtoValue> | null;
}

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

/** JSON object -> google.protobuf.Struct. Follows JSON.stringify for undefined and toJSON(). */
export function toStruct(object: Record<string, unknown>): ProtoStruct {
  return encodeObject(object, new Set());
}

/** JSON value -> google.protobuf.Value. Throws TypeError for what JSON cannot carry. */
export function toValue(value: unknown): ProtoValue {
  return encodeValue(value, new Set(), '$');
}

/** google.protobuf.Struct -> JSON object; null/undefined give {}. */
export function fromStruct(struct: ProtoStruct | null | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(struct?.fields ?? {})) out[key] = fromValue(value);
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

function encodeValue(value: unknown, ancestors: Set<object>, path: string): ProtoValue {
  const json = withToJson(value);
  if (json === null) return { nullValue: 'NULL_VALUE' };
  switch (typeof json) {
    case 'boolean':
      return { boolValue: json };
    case 'string':
      return { stringValue: json };
    case 'number':
      if (!Number.isFinite(json)) throw new TypeError(`${path}: ${json} is not representable in JSON`);
      return { numberValue: json };
    case 'object':
      if (ancestors.has(json)) throw new TypeError(`${path}: circular reference`);
      if (Array.isArray(json)) return { listValue: encodeList(json, ancestors, path) };
      return { structValue: encodeObject(json as Record<string, unknown>, ancestors, path) };
    default:
      throw new TypeError(`${path}: a ${typeof json} is not a JSON value`);
  }
}

function encodeList(items: unknown[], ancestors: Set<object>, path: string): ProtoListValue {
  ancestors.add(items);
  const values = items.map((item, index) =>
    isSkippable(item) ? { nullValue: 'NULL_VALUE' as const } : encodeValue(item, ancestors, `${path}[${index}]`),
  );
  ancestors.delete(items);
  return { values };
}

function encodeObject(object: Record<string, unknown>, ancestors: Set<object>, path = '$'): ProtoStruct {
  ancestors.add(object);
  const fields: Record<string, ProtoValue> = {};
  for (const [key, item] of Object.entries(object)) {
    if (!isSkippable(item)) fields[key] = encodeValue(item, ancestors, `${path}.${key}`);
  }
  ancestors.delete(object);
  return { fields };
}

/** What JSON.stringify leaves out of objects and turns into null inside arrays. */
function isSkippable(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function withToJson(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}
