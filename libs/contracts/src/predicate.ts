import type { JsonValue } from './json-value';

/**
 * The row predicate of a FILTER plan step (see FilterStep in proto/s2sp/v1/agent.proto):
 *   {"field": "a.b", "op": "eq", "value": ...} | {"and": [...]} | {"or": [...]} | {"not": P}
 * @internal
 */
export type Predicate = ComparisonPredicate | { and: Predicate[] } | { or: Predicate[] } | { not: Predicate };

/** @internal */
export const PREDICATE_OPS = ['eq', 'ne', 'in', 'contains', 'gt', 'gte', 'lt', 'lte'] as const;
/** @internal */
export type PredicateOp = (typeof PREDICATE_OPS)[number];

/** @internal */
export interface ComparisonPredicate {
  field: string;
  op: PredicateOp;
  value: JsonValue;
}

/** @public */
export class PredicateSyntaxError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'PredicateSyntaxError';
  }
}

/**
 * Deepest nesting a predicate may have, its comparison values included: the
 * parser, the evaluator and JSON comparison recurse, and a hostile predicate
 * nested thousands deep would otherwise end in a stack overflow.
 */
const MAX_PREDICATE_DEPTH = 64;

/**
 * Checks that an untrusted JSON value is a well-formed predicate; throws PredicateSyntaxError.
 * @internal
 */
export function parsePredicate(input: unknown, path = '$'): Predicate {
  return parseNode(input, path, 1);
}

function parseNode(input: unknown, path: string, depth: number): Predicate {
  if (depth > MAX_PREDICATE_DEPTH)
    throw new PredicateSyntaxError(path, `nested deeper than ${MAX_PREDICATE_DEPTH} levels`);
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new PredicateSyntaxError(path, 'a predicate must be an object');
  }
  const node = input as Record<string, unknown>;
  const keys = Object.keys(node);
  if ('and' in node || 'or' in node) {
    const key = 'and' in node ? 'and' : 'or';
    if (keys.length !== 1) throw new PredicateSyntaxError(path, `"${key}" must be the only member`);
    const operands = node[key];
    if (!Array.isArray(operands) || operands.length === 0) {
      throw new PredicateSyntaxError(`${path}.${key}`, 'must be a non-empty array of predicates');
    }
    const parsed = operands.map((operand, index) => parseNode(operand, `${path}.${key}[${index}]`, depth + 1));
    return key === 'and' ? { and: parsed } : { or: parsed };
  }
  if ('not' in node) {
    if (keys.length !== 1) throw new PredicateSyntaxError(path, '"not" must be the only member');
    return { not: parseNode(node.not, `${path}.not`, depth + 1) };
  }
  return parseComparison(node, keys, path, depth);
}

function parseComparison(
  node: Record<string, unknown>,
  keys: string[],
  path: string,
  depth: number,
): ComparisonPredicate {
  const extra = keys.filter((key) => key !== 'field' && key !== 'op' && key !== 'value');
  if (extra.length > 0) throw new PredicateSyntaxError(path, `unknown member(s): ${extra.join(', ')}`);
  const { field, op, value } = node;
  if (typeof field !== 'string' || field === '') {
    throw new PredicateSyntaxError(`${path}.field`, 'must be a non-empty string');
  }
  if (typeof op !== 'string' || !(PREDICATE_OPS as readonly string[]).includes(op)) {
    throw new PredicateSyntaxError(`${path}.op`, `must be one of ${PREDICATE_OPS.join(', ')}`);
  }
  if (!('value' in node)) throw new PredicateSyntaxError(`${path}.value`, 'is required');
  if (op === 'in' && !Array.isArray(value)) throw new PredicateSyntaxError(`${path}.value`, '"in" needs an array');
  if (nestsDeeperThan(value, MAX_PREDICATE_DEPTH - depth)) {
    throw new PredicateSyntaxError(
      `${path}.value`,
      `nested deeper than ${MAX_PREDICATE_DEPTH} levels with its predicate`,
    );
  }
  return { field, op: op as PredicateOp, value: value as JsonValue };
}

/** Whether `value` has arrays or objects nested more than `levels` deep; looks no further than that. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels <= 0) return true;
  return Object.values(value).some((item) => nestsDeeperThan(item, levels - 1));
}

/**
 * Evaluates a parsed predicate against one row (a JSON object).
 * @internal
 */
export function evaluatePredicate(predicate: Predicate, row: Record<string, unknown>): boolean {
  if ('and' in predicate) return predicate.and.every((operand) => evaluatePredicate(operand, row));
  if ('or' in predicate) return predicate.or.some((operand) => evaluatePredicate(operand, row));
  if ('not' in predicate) return !evaluatePredicate(predicate.not, row);
  const actual = readPath(row, predicate.field);
  if (actual === undefined) return predicate.op === 'ne';
  return compare(predicate.op, actual, predicate.value);
}

function compare(op: PredicateOp, actual: unknown, expected: JsonValue): boolean {
  switch (op) {
    case 'eq':
      return jsonEqual(actual, expected);
    case 'ne':
      return !jsonEqual(actual, expected);
    case 'in':
      return (expected as JsonValue[]).some((candidate) => jsonEqual(actual, candidate));
    case 'contains':
      if (typeof actual === 'string') return typeof expected === 'string' && actual.includes(expected);
      return Array.isArray(actual) && actual.some((element) => jsonEqual(element, expected));
    default:
      return ordered(op, actual, expected);
  }
}

function ordered(op: 'gt' | 'gte' | 'lt' | 'lte', actual: unknown, expected: JsonValue): boolean {
  const comparable =
    (typeof actual === 'number' && typeof expected === 'number') ||
    (typeof actual === 'string' && typeof expected === 'string');
  if (!comparable) return false;
  const a = actual;
  const b = expected;
  if (op === 'gt') return a > b;
  if (op === 'gte') return a >= b;
  if (op === 'lt') return a < b;
  return a <= b;
}

function readPath(row: Record<string, unknown>, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(row, path)) return row[path];
  let current: unknown = row;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, segment)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  return (
    aKeys.length === Object.keys(bRecord).length &&
    aKeys.every(
      (key) =>
        Object.prototype.hasOwnProperty.call(bRecord, key) &&
        jsonEqual((a as Record<string, unknown>)[key], bRecord[key]),
    )
  );
}
