import { type JsonObject, type v1 } from '@s2sp/contracts';
import { jsonObjectOr, timestampToMs } from '@s2sp/contracts/internal';

/** A 64-bit counter (a decimal string in the generated messages) as a JSON number. */
export function protoCount(value: string | null | undefined): number {
  if (value === null || value === undefined || value === '') return 0;
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
}

/** A Timestamp as an ISO-8601 string; unset -> undefined. */
export function protoTimeToIso(timestamp: v1.Timestamp | undefined): string | undefined {
  const ms = timestampToMs(timestamp);
  return ms === undefined || ms === 0 ? undefined : new Date(ms).toISOString();
}

/** A decoded Struct as a JSON object; unset -> undefined. */
export function protoStructToJson(struct: v1.ToolInvocationResponse['output']): JsonObject | undefined {
  return struct ? jsonObjectOr(struct) : undefined;
}

/** proto3 strings are '' when unset: undefined instead, so the JSON member is left out. */
export function nonEmpty(value: string | null | undefined): string | undefined {
  return value ? value : undefined;
}

/** Copies only the members whose value is not undefined (JSON results never carry undefined). */
export function compact<T extends Record<string, unknown>>(object: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]: Exclude<T[K], undefined> };
}
