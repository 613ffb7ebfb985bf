import type { JsonObject } from '@s2sp/contracts';

/**
 * ErrorInfo as stored and streamed (JSON form of s2sp.v1.ErrorInfo).
 * @public
 */
export interface TaskErrorInfo {
  code: number;
  message: string;
  recovery_hint: string;
  details?: JsonObject;
}

export function taskError(code: number, message: string, recoveryHint: string, details?: JsonObject): TaskErrorInfo {
  return details
    ? { code, message, recovery_hint: recoveryHint, details }
    : { code, message, recovery_hint: recoveryHint };
}
