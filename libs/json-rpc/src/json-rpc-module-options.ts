import type { AsyncModuleOptions } from '@s2sp/platform';
import type { OpenRpcInfo } from './openrpc/openrpc-info';

/** @public */
export interface JsonRpcModuleOptions {
  /** Most requests accepted in one batch (the batch limit B_max). Default 50. */
  maxBatchSize?: number;
  /** Most calls of one batch running at the same time. Default 8. */
  batchConcurrency?: number;
  /** Largest accepted HTTP body in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Deadline given to a call that names none, in ms from arrival. Default 30 000. */
  defaultDeadlineMs?: number;
  /** Furthest deadline a caller may ask for, in ms from arrival. Default 120 000. */
  maxDeadlineMs?: number;
  /** Deepest nesting of objects/arrays in a call's params (params itself is level 1). Default 32. */
  maxParamsDepth?: number;
  /** Most elements of any one array in params. Default 1 000. */
  maxParamsArrayLength?: number;
  /** Longest string (value or member name) in params, in UTF-16 code units. Default 65 536. */
  maxParamsStringLength?: number;
  /** Most values in a call's params in all (every member and array element, at any depth). Default 10 000. */
  maxParamsMembers?: number;
  /** info block of the rpc.discover document. */
  info?: OpenRpcInfo;
}

/** @internal */
export type ResolvedJsonRpcModuleOptions = Readonly<Required<JsonRpcModuleOptions>>;

type NumericOption = Exclude<keyof JsonRpcModuleOptions, 'info'>;
const NUMERIC_OPTIONS: readonly NumericOption[] = [
  'maxBatchSize',
  'batchConcurrency',
  'maxBodyBytes',
  'defaultDeadlineMs',
  'maxDeadlineMs',
  'maxParamsDepth',
  'maxParamsArrayLength',
  'maxParamsStringLength',
  'maxParamsMembers',
];

/**
 * Options made at run time: `useFactory`, `useClass` or `useExisting`.
 * @public
 */
export type JsonRpcModuleAsyncOptions = AsyncModuleOptions<JsonRpcModuleOptions>;

/**
 * Injection token of the resolved options.
 * @public
 */
export const JSON_RPC_MODULE_OPTIONS = Symbol('JSON_RPC_MODULE_OPTIONS');

/** @internal */
export const DEFAULT_JSON_RPC_OPTIONS: ResolvedJsonRpcModuleOptions = Object.freeze({
  maxBatchSize: 50,
  batchConcurrency: 8,
  maxBodyBytes: 1024 * 1024,
  defaultDeadlineMs: 30_000,
  maxDeadlineMs: 120_000,
  // Well below protobuf's decoding recursion limit of 100 (each JSON level is a Struct and a Value there).
  maxParamsDepth: 32,
  maxParamsArrayLength: 1_000,
  maxParamsStringLength: 65_536,
  maxParamsMembers: 10_000,
  info: Object.freeze({ title: 'S2SP gateway', version: '0.1.0' }),
});

/** Fills defaults and rejects nonsense at startup rather than on the first request. */
export function resolveJsonRpcOptions(options: JsonRpcModuleOptions = {}): ResolvedJsonRpcModuleOptions {
  const resolved = { ...DEFAULT_JSON_RPC_OPTIONS, info: options.info ?? DEFAULT_JSON_RPC_OPTIONS.info };
  for (const key of NUMERIC_OPTIONS) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`JsonRpcModule option ${key} must be a positive integer, got ${String(value)}`);
    }
    resolved[key] = value;
  }
  if (resolved.defaultDeadlineMs > resolved.maxDeadlineMs) {
    throw new RangeError('JsonRpcModule option defaultDeadlineMs must not exceed maxDeadlineMs');
  }
  return Object.freeze(resolved);
}
