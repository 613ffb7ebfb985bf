import type { InjectionToken, OptionalFactoryDependency, Type } from '@nestjs/common';
import { resolveAuditDelivery, type AuditDeliveryOptions, type ResolvedAuditDelivery } from '../audit/audit-delivery';
import type { AuditSink } from '../audit/audit-sink';
import type { ApprovalProvider } from '../authorization/approval-provider';
import { isMutationClass, type MutationClass } from '../authorization/mutation-class';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../authorization/authorize';
import {
  DEFAULT_VERIFY_CACHE_SIZE,
  DEFAULT_VERIFY_CACHE_TTL_MS,
  MAX_VERIFY_CACHE_TTL_MS,
} from '../identity/caching-token-verifier';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS } from '../identity/jwt-token-verifier';
import type { KeySetSource } from '../identity/key-set';
import { DEFAULT_AUTH_DATA_DIR, DEV_ISSUER } from '../keys/dev-key-store';
import {
  DEFAULT_MINT_CACHE_SIZE,
  DEFAULT_MINT_REUSE_SLACK_MS,
  MAX_MINT_REUSE_SLACK_MS,
} from '../minting/narrowed-token-cache';

/** Largest size allowed for the verified-token and narrowed-token caches. */
export const MAX_AUTH_CACHE_SIZE = 1_000_000;

/**
 * Injection token of the resolved {@link AuthModuleOptions}.
 * @internal
 */
export const AUTH_OPTIONS = 'S2SP_AUTH_OPTIONS';

/**
 * A provider the module registers under a token: a class, a value or a factory.
 * @public
 */
export type ProviderSpec<T> =
  | { useClass: Type<T> }
  | { useValue: T }
  | { useFactory: (...args: any[]) => T | Promise<T>; inject?: Array<InjectionToken | OptionalFactoryDependency> };

/**
 * Verifier keys without a live store: the module builds the dev store itself.
 * @public
 */
export type KeysOption = Exclude<KeySetSource, { kind: 'dev' }> | { kind: 'dev' };

/** @public */
export interface AuthModuleOptions {
  /** This service's audience, e.g. "gateway", "agents", "weather-server". Tokens must name it in `aud`. */
  audience: string;
  /** Trusted issuer(s); the first is also the `iss` of tokens this service mints. Default "s2sp-dev". */
  issuer?: string | readonly string[];
  /** Public keys to verify with. Default: the dev key (`{ kind: 'dev' }`). */
  keys?: KeysOption;
  /** Private JWK file to mint with (RS256/ES256). Default: the dev key. */
  signingKeyFile?: string;
  /** Directory of the dev key. Default ".data/auth". */
  dataDir?: string;
  /** Default 30 s. */
  clockToleranceSeconds?: number;
  /** Longest wait for an approval decision (default 60 s). */
  approvalTimeoutMs?: number;
  /** Mutation class of handlers without @MutationClass (default READ_ONLY). */
  defaultMutationClass?: MutationClass;
  /** Verified tokens remembered, so a reused bearer token is not verified again (default 10,000; 0 turns it off). */
  verifyCacheSize?: number;
  /** How long one verification is honoured before the token is checked against the keys again, ms (default 60 s, at most 15 min). */
  verifyCacheTtlMs?: number;
  /** Narrowed tokens remembered for reuse by the same narrowing (default 10,000; 0 turns it off). */
  mintCacheSize?: number;
  /** How much earlier than a fresh token's a reused narrowed token's `exp` may be, ms (default 5 s, at most 60 s; never over 10 % of its lifetime). */
  mintReuseSlackMs?: number;
  /** Default: deny every operation that needs approval. */
  approvalProvider?: ProviderSpec<ApprovalProvider>;
  /** Default: {@link LoggerAuditSink}. */
  auditSink?: ProviderSpec<AuditSink>;
  /** How decisions reach the sink (default: batched, flushed every 100 ms). */
  auditDelivery?: AuditDeliveryOptions;
}

/**
 * The options with every default filled in (what AUTH_OPTIONS holds).
 * @public
 */
export interface ResolvedAuthOptions {
  audience: string;
  issuers: readonly string[];
  mintIssuer: string;
  keys: KeysOption;
  signingKeyFile?: string;
  dataDir: string;
  clockToleranceSeconds: number;
  approvalTimeoutMs: number;
  defaultMutationClass: MutationClass;
  auditDelivery: ResolvedAuditDelivery;
  verifyCacheSize: number;
  verifyCacheTtlMs: number;
  mintCacheSize: number;
  mintReuseSlackMs: number;
}

/**
 * Fills in defaults and rejects unusable values, naming the option.
 * @internal
 */
export function resolveAuthOptions(options: AuthModuleOptions): ResolvedAuthOptions {
  const fail = (name: string, why: string): never => {
    throw new RangeError(`Auth option ${name} ${why}`);
  };
  if (typeof options.audience !== 'string' || options.audience.trim() === '')
    fail('audience', 'must be a non-empty string');
  const issuers =
    options.issuer === undefined
      ? [DEV_ISSUER]
      : typeof options.issuer === 'string'
        ? [options.issuer]
        : [...options.issuer];
  if (issuers.length === 0 || issuers.some((issuer) => typeof issuer !== 'string' || issuer.trim() === ''))
    fail('issuer', 'must be a non-empty string or list');
  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isInteger(clockToleranceSeconds) || clockToleranceSeconds < 0 || clockToleranceSeconds > 300)
    fail('clockToleranceSeconds', 'must be an integer from 0 to 300');
  const approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  if (!Number.isSafeInteger(approvalTimeoutMs) || approvalTimeoutMs < 1)
    fail('approvalTimeoutMs', 'must be a positive integer');
  const defaultMutationClass = options.defaultMutationClass ?? 'READ_ONLY';
  if (!isMutationClass(defaultMutationClass))
    fail('defaultMutationClass', `must be one of READ_ONLY, IDEMPOTENT_WRITE, NON_IDEMPOTENT_WRITE, DESTRUCTIVE`);
  const wholeNumber = (name: keyof AuthModuleOptions, value: number, min: number, max: number): number => {
    if (!Number.isSafeInteger(value) || value < min || value > max)
      fail(name, `must be an integer from ${min} to ${max}`);
    return value;
  };
  const verifyCacheSize = wholeNumber(
    'verifyCacheSize',
    options.verifyCacheSize ?? DEFAULT_VERIFY_CACHE_SIZE,
    0,
    MAX_AUTH_CACHE_SIZE,
  );
  const verifyCacheTtlMs = wholeNumber(
    'verifyCacheTtlMs',
    options.verifyCacheTtlMs ?? DEFAULT_VERIFY_CACHE_TTL_MS,
    1,
    MAX_VERIFY_CACHE_TTL_MS,
  );
  const mintCacheSize = wholeNumber(
    'mintCacheSize',
    options.mintCacheSize ?? DEFAULT_MINT_CACHE_SIZE,
    0,
    MAX_AUTH_CACHE_SIZE,
  );
  const mintReuseSlackMs = wholeNumber(
    'mintReuseSlackMs',
    options.mintReuseSlackMs ?? DEFAULT_MINT_REUSE_SLACK_MS,
    0,
    MAX_MINT_REUSE_SLACK_MS,
  );
  const keys = options.keys ?? { kind: 'dev' };
  if (keys.kind === 'jwks-url' && !keys.url) fail('keys.url', 'must be set');
  if (keys.kind === 'jwks-file' && !keys.path) fail('keys.path', 'must be set');
  return {
    audience: options.audience.trim(),
    issuers,
    mintIssuer: issuers[0],
    keys,
    ...(options.signingKeyFile ? { signingKeyFile: options.signingKeyFile } : {}),
    dataDir: options.dataDir ?? DEFAULT_AUTH_DATA_DIR,
    clockToleranceSeconds,
    approvalTimeoutMs,
    defaultMutationClass,
    auditDelivery: resolveAuditDelivery(options.auditDelivery),
    verifyCacheSize,
    verifyCacheTtlMs,
    mintCacheSize,
    mintReuseSlackMs,
  };
}
