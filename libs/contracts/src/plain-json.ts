import type { JsonObject, JsonValue } from './json-value';
import { setOwnMember } from './own-member';

/**
 * A JavaScript object as the JSON that JSON.stringify would write for it:
 * toJSON() followed, undefined/functions/symbols left out of objects and
 * null inside arrays. Throws TypeError (with the path) for a circular
 * reference, a non-finite number or a bigint, which JSON cannot carry.
 * The generated google.protobuf.Struct codec encodes whatever it is given;
 * everything handed to it goes through here first.
 * @internal
 */
export function toJsonObject(object: Record<string, unknown>): JsonObject {
  return normalizeObject(object, new Set(), '$');
}

/** A JavaScript value as JSON (see {@link toJsonObject}); throws TypeError for what JSON cannot carry. */
export function toJsonValue(value: unknown): JsonValue {
  return normalizeValue(value, new Set(), '$');
}

/**
 * A decoded google.protobuf.Struct field as a JSON object; unset gives {}.
 * @internal
 */
export function jsonObjectOr(struct: { [key: string]: any } | undefined, fallback: JsonObject = {}): JsonObject {
  return struct ?? fallback;
}

function normalizeValue(value: unknown, ancestors: Set<object>, path: string): JsonValue {
  const json = withToJson(value);
  if (json === null) return null;
  switch (typeof json) {
    case 'boolean':
    case 'string':
      return json;
    case 'number':
      if (!Number.isFinite(json)) throw new TypeError(`${path}: ${json} is not representable in JSON`);
      return json;
    case 'object':
      if (ancestors.has(json)) throw new TypeError(`${path}: circular reference`);
      if (Array.isArray(json)) return normalizeList(json, ancestors, path);
      return normalizeObject(json as Record<string, unknown>, ancestors, path);
    default:
      throw new TypeError(`${path}: a ${typeof json} is not a JSON value`);
  }
}

function normalizeList(items: unknown[], ancestors: Set<object>, path: string): JsonValue[] {
  ancestors.add(items);
  const values = items.map((item, index) =>
    isSkippable(item) ? null : normalizeValue(item, ancestors, `${path}[${index}]`),
  );
  ancestors.delete(items);
  return values;
}

function normalizeObject(object: Record<string, unknown>, ancestors: Set<object>, path: string): JsonObject {
  ancestors.add(object);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(object)) {
    if (!isSkippable(item)) setOwnMember(out, key, normalizeValue(item, ancestors, `${path}.${key}`));
  }
  ancestors.delete(object);
  return out;
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
