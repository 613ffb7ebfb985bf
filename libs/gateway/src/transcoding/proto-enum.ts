/**
 * Enums at the JSON-RPC boundary are the proto value names in lower case
 * without the enum's prefix: TASK_STATUS_RUNNING -> "running",
 * TOOL_KIND_S2SP_RESOURCE -> "s2sp_resource", *_UNSPECIFIED -> "unspecified".
 * A number (a value this gateway's protos do not know) is "unspecified" too.
 */
export function protoEnumToJson(value: string | number | null | undefined, prefix: string): string {
  if (typeof value !== 'string' || !value.startsWith(prefix)) return 'unspecified';
  return value.slice(prefix.length).toLowerCase();
}

/**
 * The inverse: "async" with prefix DATA_PLANE_MODE_ -> "DATA_PLANE_MODE_ASYNC"; undefined -> the UNSPECIFIED value.
 * `values` is the generated enum (e.g. v1.DataPlaneMode); a name it lacks is a TypeError, since the
 * params were validated against the same names before they get here.
 */
export function jsonToProtoEnum<Values extends Record<string, string>>(
  value: string | undefined,
  values: Values,
  prefix: string,
): Values[keyof Values] {
  const name = `${prefix}${(value ?? 'unspecified').toUpperCase()}`;
  if (!Object.prototype.hasOwnProperty.call(values, name) || name.endsWith('UNRECOGNIZED'))
    throw new TypeError(`${name} is not a value of this enum`);
  return values[name as keyof Values];
}

export const ENUM_PREFIX = {
  TASK_STATUS: 'TASK_STATUS_',
  STEP_TYPE: 'STEP_TYPE_',
  STEP_OUTCOME: 'STEP_OUTCOME_',
  CANCEL_MODE: 'CANCEL_MODE_',
  DATA_PLANE_MODE: 'DATA_PLANE_MODE_',
  TOOL_KIND: 'TOOL_KIND_',
  MUTATION_CLASS: 'MUTATION_CLASS_',
  TOOL_RESULT_STATUS: 'TOOL_RESULT_STATUS_',
  CIRCUIT_STATE: 'CIRCUIT_STATE_',
} as const;
