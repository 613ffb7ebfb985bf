import { JsonRpcError } from './json-rpc-error';
import type { ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';

export const DEADLINE_HEADER = 'x-deadline-ms';
export const DEADLINE_PARAM = 'deadline_ms';

/** Deadline inputs shared by every call of one HTTP exchange. */
export interface ExchangeDeadline {
  receivedAt: number;
  /** Absolute deadline from X-Deadline-Ms; undefined when absent. */
  requested: number | undefined;
  /** A batch has one deadline: calls may shorten it, never extend it. */
  isBatch: boolean;
}

/** Reads X-Deadline-Ms (absolute, ms since the epoch). Throws -32600 when it is not an integer. */
export function readDeadlineHeader(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value[0] : value).trim();
  if (!/^\d{1,16}$/.test(text)) {
    throw JsonRpcError.invalidRequest('Invalid Request: X-Deadline-Ms must be an absolute time in ms since the epoch', {
      header: 'X-Deadline-Ms',
    });
  }
  return Number(text);
}

/** Reads params.deadline_ms. Throws -32602 naming the field when it is present but not an integer. */
export function readDeadlineParam(params: unknown): number | undefined {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(params, DEADLINE_PARAM)) return undefined;
  const value = (params as Record<string, unknown>)[DEADLINE_PARAM];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw JsonRpcError.invalidParams([
      {
        path: DEADLINE_PARAM,
        constraints: { isDeadline: `${DEADLINE_PARAM} must be an absolute time in ms since the epoch` },
      },
    ]);
  }
  return value;
}

/**
 * The absolute deadline of one call: the earliest of the header and params.deadline_ms,
 * else the default (for a batch without header the default is the batch's deadline),
 * never later than receivedAt + maxDeadlineMs.
 */
export function resolveCallDeadline(
  exchange: ExchangeDeadline,
  paramsDeadline: number | undefined,
  options: Pick<ResolvedJsonRpcModuleOptions, 'defaultDeadlineMs' | 'maxDeadlineMs'>,
): number {
  const fallback = exchange.receivedAt + options.defaultDeadlineMs;
  const ceiling = exchange.receivedAt + options.maxDeadlineMs;
  const inherited = exchange.requested ?? (exchange.isBatch ? fallback : undefined);
  const candidates = [inherited, paramsDeadline].filter((value): value is number => value !== undefined);
  const requested = candidates.length > 0 ? Math.min(...candidates) : fallback;
  return Math.min(requested, ceiling);
}
