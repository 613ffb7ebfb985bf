import { JsonRpcErrorCode } from './json-rpc-error-codes';
import { JsonRpcError } from './json-rpc-error';
import type { ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';

export type ParamsShapeLimits = Pick<
  ResolvedJsonRpcModuleOptions,
  'maxParamsDepth' | 'maxParamsArrayLength' | 'maxParamsStringLength' | 'maxParamsMembers'
>;

/** A node of the walk; the path is built from the parent chain only when a limit is broken. */
interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string | number | undefined;
}

/**
 * Checks the shape of a call's params before any work is done on them:
 * nesting depth, array lengths, string lengths and the total number of values.
 * Past those, params cost the gateway and the agents more than any method
 * needs (protobuf refuses Structs nested past 100 levels; recursive code
 * overflows the stack long before a 1 MiB body runs out). The walk is
 * iterative so that checking deep params cannot overflow the stack itself.
 *
 * A `__proto__` member is refused at any depth: JSON.parse makes it an own
 * member, but code that copies by assignment (class-transformer, protobufjs's
 * map conversion) turns it into a prototype change and drops the data silently.
 */
export function checkParamsShape(params: unknown, limits: ParamsShapeLimits): void {
  if (params === null || typeof params !== 'object') return;
  const pending: Visit[] = [{ value: params, depth: 1, parent: undefined, key: undefined }];
  let members = 0;
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (visit.depth > limits.maxParamsDepth) {
      throw exceeded(
        visit,
        'maxParamsDepth',
        limits.maxParamsDepth,
        `params must not nest deeper than ${limits.maxParamsDepth} levels`,
      );
    }
    const entries: [string | number, unknown][] = Array.isArray(visit.value)
      ? arrayEntries(visit, limits)
      : objectEntries(visit, limits);
    members += entries.length;
    if (members > limits.maxParamsMembers) {
      throw exceeded(
        visit,
        'maxParamsMembers',
        limits.maxParamsMembers,
        `params must not hold more than ${limits.maxParamsMembers} values in all`,
      );
    }
    for (const [key, value] of entries) {
      if (typeof value === 'string' && value.length > limits.maxParamsStringLength) {
        const child = { value, depth: visit.depth + 1, parent: visit, key };
        throw exceeded(
          child,
          'maxParamsStringLength',
          limits.maxParamsStringLength,
          `strings in params must not be longer than ${limits.maxParamsStringLength} characters`,
        );
      }
      if (value !== null && typeof value === 'object')
        pending.push({ value, depth: visit.depth + 1, parent: visit, key });
    }
  }
}

function arrayEntries(visit: Visit, limits: ParamsShapeLimits): [number, unknown][] {
  const array = visit.value as unknown[];
  if (array.length > limits.maxParamsArrayLength) {
    throw exceeded(
      visit,
      'maxParamsArrayLength',
      limits.maxParamsArrayLength,
      `arrays in params must not have more than ${limits.maxParamsArrayLength} elements`,
    );
  }
  return array.map((item, index) => [index, item]);
}

function objectEntries(visit: Visit, limits: ParamsShapeLimits): [string, unknown][] {
  const entries = Object.entries(visit.value as Record<string, unknown>);
  for (const [key] of entries) {
    if (key.length > limits.maxParamsStringLength) {
      throw exceeded(
        visit,
        'maxParamsStringLength',
        limits.maxParamsStringLength,
        `member names in params must not be longer than ${limits.maxParamsStringLength} characters`,
      );
    }
    if (key === '__proto__') {
      const child = { value: undefined, depth: visit.depth + 1, parent: visit, key };
      throw JsonRpcError.invalidParams([
        { path: pathOf(child), constraints: { whitelistValidation: 'property __proto__ should not exist' } },
      ]);
    }
  }
  return entries;
}

/** -32602 naming the limit (its option name and value) and where params broke it. */
function exceeded(visit: Visit, limit: keyof ParamsShapeLimits, max: number, message: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${message}`, {
    fields: [{ path: pathOf(visit), constraints: { [limit]: message } }],
    limit,
    max,
  });
}

/** "plan[0].resource_call.arguments.a" — the same notation as class-validator violations. */
function pathOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let node: Visit | undefined = visit; node?.key !== undefined; node = node.parent) keys.unshift(node.key);
  return keys.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? key : `.${key}`)).join('');
}
