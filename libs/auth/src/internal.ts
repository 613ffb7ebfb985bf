// @s2sp/auth/internal — for the other @s2sp packages only: not part of the public API, may change in any release.
export { hasAuditWriteStatus } from './audit/audit-write-status';
export { AUTH_OPTIONS, resolveAuthOptions } from './config/auth-options';
export { AuthJsonRpcCode } from './errors/auth-error';
export { REQUIRED_SCOPES_METADATA } from './authorization/require-scopes.decorator';
export { bearerChallenge } from './guards/http-auth.guard';
export { isIssuerUrl, protectedResourceMetadataPath } from './metadata/protected-resource-metadata';
export { writeAuthRefusal } from './middleware/auth-refusal-response';
export { isValidScope, splitScopes } from './identity/scopes';
export { consumerDataScopes } from './minting/narrow-scopes';
export { attachCaller, requireCaller } from './transport/caller-carrier';
export { traceIdFrom } from './transport/trace-id';
