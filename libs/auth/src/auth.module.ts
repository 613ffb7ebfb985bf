import { type AsyncModuleOptions } from '@s2sp/platform';
import { asyncOptionsProviders } from '@s2sp/platform/internal';
import { Module, type DynamicModule, type InjectionToken, type Provider } from '@nestjs/common';
import { AUDIT_SINK, type AuditSink } from './audit/audit-sink';
import { BatchingAuditSink } from './audit/batching-audit-sink';
import { LoggerAuditSink } from './audit/logger-audit-sink';
import { APPROVAL_PROVIDER, type ApprovalProvider } from './authorization/approval-provider';
import { AUTHORIZATION_GATE_OPTIONS, AuthorizationGate } from './authorization/authorization-gate';
import { DenyAllApprovalProvider } from './authorization/deny-all-approval-provider';
import {
  AUTH_OPTIONS,
  resolveAuthOptions,
  type AuthModuleOptions,
  type ProviderSpec,
  type ResolvedAuthOptions,
} from './config/auth-options';
import { HttpAuthGuard } from './guards/http-auth.guard';
import { CachingTokenVerifier } from './identity/caching-token-verifier';
import { JwtTokenVerifier } from './identity/jwt-token-verifier';
import type { KeySetSource } from './identity/key-set';
import { TOKEN_VERIFIER } from './identity/token-verifier';
import { DevKeyStore } from './keys/dev-key-store';
import { FileSigningKeySource, SIGNING_KEY_SOURCE, type SigningKeySource } from './keys/signing-key';
import { TokenMinter } from './minting/token-minter';
import { AuthWarmUp } from './warm-up/auth-warm-up';

/**
 * Options made at run time (`useFactory`, `useClass` or `useExisting`). The approval provider and
 * the audit sink are providers: Nest must know them when it builds the module, so they sit beside.
 * @public
 */
export type AuthModuleAsyncOptions = AsyncModuleOptions<Omit<AuthModuleOptions, 'approvalProvider' | 'auditSink'>> & {
  approvalProvider?: ProviderSpec<ApprovalProvider>;
  auditSink?: ProviderSpec<AuditSink>;
};

/** The sink the module was given (or the default), before the delivery wraps it. */
const AUDIT_SINK_TARGET = Symbol('S2SP_AUTH_AUDIT_SINK_TARGET');

const EXPORTS = [
  AUTH_OPTIONS,
  TOKEN_VERIFIER,
  SIGNING_KEY_SOURCE,
  APPROVAL_PROVIDER,
  AUDIT_SINK,
  DevKeyStore,
  TokenMinter,
  AuthorizationGate,
  HttpAuthGuard,
];

/**
 * Caller-scoped security for one service (global). Provides TOKEN_VERIFIER,
 * TokenMinter, AuthorizationGate, APPROVAL_PROVIDER, AUDIT_SINK and the guards;
 * with no options beyond `audience` it runs on the embedded dev key.
 * @public
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      providers: [
        { provide: AUTH_OPTIONS, useValue: resolveAuthOptions(options) },
        ...AuthModule.coreProviders(),
        specProvider(APPROVAL_PROVIDER, options.approvalProvider, DenyAllApprovalProvider),
        ...AuthModule.auditProviders(options.auditSink),
      ],
      exports: EXPORTS,
    };
  }

  static forRootAsync(options: AuthModuleAsyncOptions): DynamicModule {
    return {
      module: AuthModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        ...asyncOptionsProviders('AuthModule', AUTH_OPTIONS, options, resolveAuthOptions),
        ...AuthModule.coreProviders(),
        specProvider(APPROVAL_PROVIDER, options.approvalProvider, DenyAllApprovalProvider),
        ...AuthModule.auditProviders(options.auditSink),
      ],
      exports: EXPORTS,
    };
  }

  /** The configured sink, wrapped in the batching delivery unless `auditDelivery.mode` is `blocking`. */
  private static auditProviders(sink: ProviderSpec<AuditSink> | undefined): Provider[] {
    return [
      specProvider(AUDIT_SINK_TARGET, sink, LoggerAuditSink),
      {
        provide: AUDIT_SINK,
        useFactory: (options: ResolvedAuthOptions, target: AuditSink): AuditSink =>
          options.auditDelivery.mode === 'batched' ? new BatchingAuditSink(target, options.auditDelivery) : target,
        inject: [AUTH_OPTIONS, AUDIT_SINK_TARGET],
      },
    ];
  }

  private static coreProviders(): Provider[] {
    return [
      {
        provide: DevKeyStore,
        useFactory: (options: ResolvedAuthOptions) =>
          new DevKeyStore({ dataDir: options.dataDir, issuer: options.mintIssuer }),
        inject: [AUTH_OPTIONS],
      },
      {
        provide: TOKEN_VERIFIER,
        useFactory: (options: ResolvedAuthOptions, store: DevKeyStore) => {
          const keys: KeySetSource = options.keys.kind === 'dev' ? { kind: 'dev', store } : options.keys;
          const verifier = new JwtTokenVerifier({
            audience: options.audience,
            issuer: options.issuers,
            keys,
            clockToleranceSeconds: options.clockToleranceSeconds,
          });
          return new CachingTokenVerifier(verifier, {
            maxEntries: options.verifyCacheSize,
            maxAgeMs: options.verifyCacheTtlMs,
          });
        },
        inject: [AUTH_OPTIONS, DevKeyStore],
      },
      {
        provide: SIGNING_KEY_SOURCE,
        useFactory: (options: ResolvedAuthOptions, store: DevKeyStore): SigningKeySource =>
          options.signingKeyFile ? new FileSigningKeySource(options.signingKeyFile) : store,
        inject: [AUTH_OPTIONS, DevKeyStore],
      },
      {
        provide: TokenMinter,
        useFactory: (options: ResolvedAuthOptions, signingKey: SigningKeySource) =>
          new TokenMinter({
            issuer: options.mintIssuer,
            signingKey,
            narrowedTokenCache: { maxEntries: options.mintCacheSize, reuseSlackMs: options.mintReuseSlackMs },
          }),
        inject: [AUTH_OPTIONS, SIGNING_KEY_SOURCE],
      },
      {
        provide: AUTHORIZATION_GATE_OPTIONS,
        useFactory: (options: ResolvedAuthOptions) => ({ approvalTimeoutMs: options.approvalTimeoutMs }),
        inject: [AUTH_OPTIONS],
      },
      AuthorizationGate,
      HttpAuthGuard,
      AuthWarmUp,
    ];
  }
}

function specProvider<T>(
  token: InjectionToken,
  spec: ProviderSpec<T> | undefined,
  fallback: new (...args: any[]) => T,
): Provider {
  if (!spec) return { provide: token, useClass: fallback };
  if ('useClass' in spec) return { provide: token, useClass: spec.useClass };
  if ('useValue' in spec) return { provide: token, useValue: spec.useValue };
  return { provide: token, useFactory: spec.useFactory, inject: spec.inject ?? [] };
}
