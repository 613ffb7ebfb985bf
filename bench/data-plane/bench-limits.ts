import { DEFAULT_LIMITS, requestBytesNeeded, type S2spLimits } from '@s2sp/core';

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
