import type { EnvironmentVariables } from '@s2sp/platform';
import {
  AUDIT_DELIVERY_LIMITS,
  AUDIT_DELIVERY_MODES,
  type AuditDeliveryMode,
  type AuditDeliveryOptions,
} from '../audit/audit-delivery';
import { MAX_VERIFY_CACHE_TTL_MS } from '../identity/caching-token-verifier';
import { MAX_MINT_REUSE_SLACK_MS } from '../minting/narrowed-token-cache';
import { definedOnly } from './defined-only';
import { MAX_AUTH_CACHE_SIZE, type AuthModuleOptions, type KeysOption } from './auth-options';

/** The environment variables the auth library reads (one place, for docs and error messages). */
export const AUTH_ENV = {
  AUDIENCE: 'S2SP_AUTH_AUDIENCE',
  ISSUER: 'S2SP_AUTH_ISSUER',
  JWKS_URL: 'S2SP_AUTH_JWKS_URL',
  JWKS_FILE: 'S2SP_AUTH_JWKS_FILE',
  JWKS_TIMEOUT_MS: 'S2SP_AUTH_JWKS_TIMEOUT_MS',
  DATA_DIR: 'S2SP_AUTH_DATA_DIR',
  SIGNING_KEY_FILE: 'S2SP_AUTH_SIGNING_KEY_FILE',
  CLOCK_TOLERANCE_SECONDS: 'S2SP_AUTH_CLOCK_TOLERANCE_SECONDS',
  APPROVAL_TIMEOUT_MS: 'S2SP_AUTH_APPROVAL_TIMEOUT_MS',
  ALLOW_DEV_KEY: 'S2SP_AUTH_ALLOW_DEV_KEY',
  AUDIT_DELIVERY: 'S2SP_AUTH_AUDIT_DELIVERY',
  AUDIT_FLUSH_INTERVAL_MS: 'S2SP_AUTH_AUDIT_FLUSH_INTERVAL_MS',
  AUDIT_MAX_BATCH: 'S2SP_AUTH_AUDIT_MAX_BATCH',
  AUDIT_MAX_PENDING: 'S2SP_AUTH_AUDIT_MAX_PENDING',
  AUDIT_MAX_RETRY_DELAY_MS: 'S2SP_AUTH_AUDIT_MAX_RETRY_DELAY_MS',
  VERIFY_CACHE_SIZE: 'S2SP_AUTH_VERIFY_CACHE_SIZE',
  VERIFY_CACHE_TTL_MS: 'S2SP_AUTH_VERIFY_CACHE_TTL_MS',
  MINT_CACHE_SIZE: 'S2SP_AUTH_MINT_CACHE_SIZE',
  MINT_REUSE_SLACK_MS: 'S2SP_AUTH_MINT_REUSE_SLACK_MS',
} as const;

function optional(env: EnvironmentVariables, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(env: EnvironmentVariables, name: string, min: number, max: number): number | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`Environment variable ${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

/**
 * Auth options from the environment an app passes (`process.env`); `audience` is the
 * service's own name (S2SP_AUTH_AUDIENCE overrides it). Without S2SP_AUTH_JWKS_URL or
 * S2SP_AUTH_JWKS_FILE the dev key is used — refused when NODE_ENV=production
 * unless S2SP_AUTH_ALLOW_DEV_KEY=1.
 * @public
 */
export function authOptionsFromEnv(audience: string, env: EnvironmentVariables): AuthModuleOptions {
  const jwksUrl = optional(env, AUTH_ENV.JWKS_URL);
  const jwksFile = optional(env, AUTH_ENV.JWKS_FILE);
  if (jwksUrl && jwksFile) throw new Error(`Set only one of ${AUTH_ENV.JWKS_URL} and ${AUTH_ENV.JWKS_FILE}.`);
  const timeoutMs = integer(env, AUTH_ENV.JWKS_TIMEOUT_MS, 1, 60_000);
  const keys: KeysOption = jwksUrl
    ? { kind: 'jwks-url', url: jwksUrl, ...(timeoutMs ? { timeoutMs } : {}) }
    : jwksFile
      ? { kind: 'jwks-file', path: jwksFile }
      : { kind: 'dev' };
  if (keys.kind === 'dev' && env.NODE_ENV === 'production' && optional(env, AUTH_ENV.ALLOW_DEV_KEY) !== '1') {
    throw new Error(
      `NODE_ENV=production needs ${AUTH_ENV.JWKS_URL} or ${AUTH_ENV.JWKS_FILE}: the dev key is for development (set ${AUTH_ENV.ALLOW_DEV_KEY}=1 to use it anyway).`,
    );
  }
  const issuer = optional(env, AUTH_ENV.ISSUER)
    ?.split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const clockToleranceSeconds = integer(env, AUTH_ENV.CLOCK_TOLERANCE_SECONDS, 0, 300);
  const approvalTimeoutMs = integer(env, AUTH_ENV.APPROVAL_TIMEOUT_MS, 1, 24 * 60 * 60 * 1000);
  const signingKeyFile = optional(env, AUTH_ENV.SIGNING_KEY_FILE);
  const dataDir = optional(env, AUTH_ENV.DATA_DIR);
  const auditDelivery = auditDeliveryFromEnv(env);
  const caches = definedOnly({
    verifyCacheSize: integer(env, AUTH_ENV.VERIFY_CACHE_SIZE, 0, MAX_AUTH_CACHE_SIZE),
    verifyCacheTtlMs: integer(env, AUTH_ENV.VERIFY_CACHE_TTL_MS, 1, MAX_VERIFY_CACHE_TTL_MS),
    mintCacheSize: integer(env, AUTH_ENV.MINT_CACHE_SIZE, 0, MAX_AUTH_CACHE_SIZE),
    mintReuseSlackMs: integer(env, AUTH_ENV.MINT_REUSE_SLACK_MS, 0, MAX_MINT_REUSE_SLACK_MS),
  });
  return {
    audience: optional(env, AUTH_ENV.AUDIENCE) ?? audience,
    keys,
    ...(issuer && issuer.length > 0 ? { issuer } : {}),
    ...(signingKeyFile ? { signingKeyFile } : {}),
    ...(dataDir ? { dataDir } : {}),
    ...(clockToleranceSeconds !== undefined ? { clockToleranceSeconds } : {}),
    ...(approvalTimeoutMs !== undefined ? { approvalTimeoutMs } : {}),
    ...caches,
    ...(Object.keys(auditDelivery).length > 0 ? { auditDelivery } : {}),
  };
}

function auditDeliveryFromEnv(env: EnvironmentVariables): AuditDeliveryOptions {
  const mode = optional(env, AUTH_ENV.AUDIT_DELIVERY);
  if (mode !== undefined && !(AUDIT_DELIVERY_MODES as readonly string[]).includes(mode)) {
    throw new Error(
      `Environment variable ${AUTH_ENV.AUDIT_DELIVERY} must be one of ${AUDIT_DELIVERY_MODES.join(', ')}; got "${mode}".`,
    );
  }
  return definedOnly({
    mode: mode as AuditDeliveryMode | undefined,
    flushIntervalMs: integer(
      env,
      AUTH_ENV.AUDIT_FLUSH_INTERVAL_MS,
      AUDIT_DELIVERY_LIMITS.flushIntervalMs.min,
      AUDIT_DELIVERY_LIMITS.flushIntervalMs.max,
    ),
    maxBatchSize: integer(
      env,
      AUTH_ENV.AUDIT_MAX_BATCH,
      AUDIT_DELIVERY_LIMITS.maxBatchSize.min,
      AUDIT_DELIVERY_LIMITS.maxBatchSize.max,
    ),
    maxPending: integer(
      env,
      AUTH_ENV.AUDIT_MAX_PENDING,
      AUDIT_DELIVERY_LIMITS.maxPending.min,
      AUDIT_DELIVERY_LIMITS.maxPending.max,
    ),
    maxRetryDelayMs: integer(
      env,
      AUTH_ENV.AUDIT_MAX_RETRY_DELAY_MS,
      AUDIT_DELIVERY_LIMITS.maxRetryDelayMs.min,
      AUDIT_DELIVERY_LIMITS.maxRetryDelayMs.max,
    ),
  });
}
