import { envInt } from '@s2sp/platform';
import { DEFAULT_LIMITS, type S2spLimits } from './s2sp-options';

/** Environment variable of each data-plane limit. */
export const S2SP_LIMIT_ENV: Record<keyof S2spLimits, string> = {
  maxRequestBytes: 'S2SP_MAX_REQUEST_BYTES',
  maxRowIdsPerFetch: 'S2SP_MAX_ROW_IDS_PER_FETCH',
  maxColumnsPerRequest: 'S2SP_MAX_COLUMNS_PER_REQUEST',
  maxColumnNameLength: 'S2SP_MAX_COLUMN_NAME_LENGTH',
  maxRows: 'S2SP_MAX_ROWS',
  maxResponseBytes: 'S2SP_MAX_RESPONSE_BYTES',
};

/**
 * Every S2spModule limit from its variable (positive integer), the default when unset.
 * @public
 */
export function s2spLimitsFromEnv(): S2spLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(S2SP_LIMIT_ENV) as Array<keyof S2spLimits>) {
    limits[name] = envInt(S2SP_LIMIT_ENV[name], DEFAULT_LIMITS[name], { min: 1 });
  }
  return limits;
}
