// @s2sp/core/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { S2SP_ACTIVITY_READ_SCOPE } from './activity/resource-activity.controller';
export { auditHealthOf, type AuditHealth } from './audit/audit-health';
export { authProviderOptions, refuseAuthProviders, type AuthSeams } from './auth/auth-seams';
export { rowsFromColumnar } from './protocol/columnar-rows';
export { ROW_ID } from './protocol/row';
export { countTokens, warmTokenCounter } from '@s2sp/protocol';
