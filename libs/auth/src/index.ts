// @s2sp/auth — caller-scoped security for every hop (described in docs/auth.md).

// Module and configuration
export * from './auth.module';
export {
  type ProviderSpec,
  type KeysOption,
  type AuthModuleOptions,
  type ResolvedAuthOptions,
} from './config/auth-options';
export { authOptionsFromEnv } from './config/auth-env';

// Identity
export { missingScopes, type CallerIdentity } from './identity/caller-identity';
export * from './identity/token-verifier';
export { type JwtTokenVerifierOptions, JwtTokenVerifier } from './identity/jwt-token-verifier';
export {
  type CachingTokenVerifierOptions,
  type ClockTolerantTokenVerifier,
  CachingTokenVerifier,
} from './identity/caching-token-verifier';
export { type KeySetSource, type KeySet } from './identity/key-set';
export { S2SP_DATA_READ_SCOPE } from './identity/scopes';

// Keys and minting
export {
  signingKeyFromJwk,
  SIGNING_ALGORITHMS,
  type SigningAlgorithm,
  type SigningKey,
  type SigningKeySource,
  SIGNING_KEY_SOURCE,
  FileSigningKeySource,
} from './keys/signing-key';
export { DEV_ISSUER, type DevKeyStoreOptions, DevKeyStore } from './keys/dev-key-store';
export { type TokenMinterOptions, type MintRequest, TokenMinter } from './minting/token-minter';
export { type NarrowedTokenCacheOptions } from './minting/narrowed-token-cache';
export { narrowScopes, type NarrowedScopes } from './minting/narrow-scopes';

// Authorization
export {
  mutationClassFromProto,
  MutationClass,
  MUTATION_CLASSES,
  mutationClassDecorator,
} from './authorization/mutation-class';
export { RequireScopes, AllowAnonymous } from './authorization/require-scopes.decorator';
export {
  type AuthorizationRequirements,
  type HandlerRequirements,
  HandlerRequirementsReader,
} from './authorization/authorization-requirements';
export * from './authorization/authorization-target';
export * from './authorization/approval-provider';
export * from './authorization/deny-all-approval-provider';
export { authorize, type AuthorizationGrant, type AuthorizeOptions } from './authorization/authorize';
export { type AuthorizationGateOptions, AuthorizationGate } from './authorization/authorization-gate';

// Audit
export * from './audit/audit-event';
export * from './audit/audit-sink';
export { type AuditDeliveryMode, type AuditDeliveryOptions, type ResolvedAuditDelivery } from './audit/audit-delivery';
export * from './audit/batching-audit-sink';
export { type AuditWriteStatus, type AuditWriteStatusSource } from './audit/audit-write-status';
export * from './audit/retrying-batch-writer';
export * from './audit/in-memory-audit-sink';
export { LoggerAuditSink } from './audit/logger-audit-sink';

// Errors
export { type AuthErrorCode, AuthError } from './errors/auth-error';
export { type AuthenticationFailureReason, AuthenticationError } from './errors/authentication-error';
export * from './errors/permission-denied-error';
export * from './errors/approval-required-error';
export * from './errors/scope-widening-error';
export * from './errors/delegation-refused-error';

// MCP authorization discovery
export {
  type ProtectedResourceOptions,
  type ProtectedResourceMetadata,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  protectedResourceMetadataMiddleware,
} from './metadata/protected-resource-metadata';

// Protocol adapters
export * from './transport/bearer';
export * from './transport/outgoing-credentials';
export { callerFrom, requestUserOf, type RequestUser } from './transport/caller-carrier';
export { Caller } from './transport/caller.decorator';
export * from './guards/protocol-auth-guard';
export { HttpAuthGuard } from './guards/http-auth.guard';
export * from './middleware/bearer-auth.middleware';

// Secrets hygiene
export * from './redaction/redact-tokens';
export * from './redaction/redacting-console-logger';
