// @s2sp/auth — caller-scoped security for every hop (described in docs/auth.md).

// Module and configuration
export * from './auth.module';
export * from './config/auth-options';
export * from './config/auth-env';

// Identity
export * from './identity/caller-identity';
export * from './identity/token-verifier';
export * from './identity/jwt-token-verifier';
export * from './identity/caching-token-verifier';
export * from './identity/key-set';
export * from './identity/scopes';
export * from './identity/delegation';

// Keys and minting
export * from './keys/signing-key';
export * from './keys/dev-key-store';
export * from './minting/token-minter';
export * from './minting/narrowed-token-cache';
export * from './minting/narrow-scopes';

// Authorization
export * from './authorization/mutation-class';
export * from './authorization/require-scopes.decorator';
export * from './authorization/authorization-requirements';
export * from './authorization/authorization-target';
export * from './authorization/approval-provider';
export * from './authorization/deny-all-approval-provider';
export * from './authorization/authorize';
export * from './authorization/authorization-gate';

// Audit
export * from './audit/audit-event';
export * from './audit/audit-sink';
export * from './audit/audit-delivery';
export * from './audit/batching-audit-sink';
export * from './audit/audit-write-status';
export * from './audit/retrying-batch-writer';
export * from './audit/in-memory-audit-sink';
export * from './audit/logger-audit-sink';

// Errors
export * from './errors/auth-error';
export * from './errors/authentication-error';
export * from './errors/permission-denied-error';
export * from './errors/approval-required-error';
export * from './errors/scope-widening-error';
export * from './errors/delegation-refused-error';

// Protocol adapters
export * from './transport/bearer';
export * from './transport/outgoing-credentials';
export * from './transport/caller-carrier';
export * from './transport/caller.decorator';
export * from './transport/trace-id';
export * from './guards/protocol-auth-guard';
export * from './guards/http-auth.guard';
export * from './middleware/bearer-auth.middleware';

// Secrets hygiene
export * from './redaction/redact-tokens';
export * from './redaction/redacting-console-logger';
