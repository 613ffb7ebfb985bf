import { type S2spLimits } from '@s2sp/core';
import { DEFAULT_LIMITS, requestBytesNeeded } from '../../libs/s2sp/src/config/s2sp-options';

/** Limits that let the bench cache and fetch `maxRows` rows, and name a tenth of them in one fetch. */
export function benchLimits(maxRows: number): S2spLimits {
  const limits: S2spLimits = {
    ...DEFAULT_LIMITS,
    maxRows: Math.max(DEFAULT_LIMITS.maxRows, maxRows),
    maxRowIdsPerFetch: Math.max(DEFAULT_LIMITS.maxRowIdsPerFetch, Math.ceil(maxRows / 10)),
    maxResponseBytes: 2 * 1024 ** 3,
  };
  return { ...limits, maxRequestBytes: Math.max(DEFAULT_LIMITS.maxRequestBytes, requestBytesNeeded(limits)) };
}

/** Room in the resource cache for two of the largest tables (about 20 bytes of JSON per cell, 30 columns). */
export function benchCacheBytes(maxRows: number): number {
  return Math.max(64 * 1024 ** 2, 2 * maxRows * 30 * 20);
}
