import { Module, type DynamicModule, type InjectionToken, type ModuleMetadata, type Provider } from '@nestjs/common';
import { AuthModule, type AuditSink, type AuthModuleOptions, type ProviderSpec } from '@s2sp/auth';
import { resolveAuthOptions } from '@s2sp/auth/internal';
import { type AsyncModuleOptions } from '@s2sp/platform';
import { asyncOptionsProviders, sharedOptionsModule, type SqlDatabase } from '@s2sp/platform/internal';
import { TelemetryMetrics } from '@s2sp/telemetry';
import { AuditRetention, DEFAULT_AUDIT_RETENTION, type AuditRetentionOptions } from '../audit/audit-retention';
import { PrismaAuditSink } from '../audit/prisma-audit-sink';
import { S2SP_DATABASE } from '../config/s2sp.constants';
import { refuseAuthProviders, type AuthProviderOptions } from './auth-seams';

/**
 * What s2spAuthModuleAsync's source makes at run time.
 * @public
 */
export interface S2spAuthSettings {
  /** AuthModule's options but its providers, which s2spAuthModuleAsync takes beside the source. */
  auth: Omit<AuthModuleOptions, keyof AuthProviderOptions>;
  /** Default DEFAULT_AUDIT_RETENTION (30 days). */
  auditRetention?: AuditRetentionOptions;
}

/**
 * What is fixed when the module is declared: the audit's database and AuthModule's providers.
 * @public
 */
export interface S2spAuthModuleWiring extends AuthProviderOptions {
  /** Token of the SqlDatabase (provided globally) the audit is written to; default S2SP_DATABASE, S2spModule's. */
  database?: InjectionToken;
}

/**
 * The settings made at run time (`useFactory`, `useClass` or `useExisting`), and the wiring beside them.
 * @public
 */
export type S2spAuthModuleAsyncOptions = AsyncModuleOptions<S2spAuthSettings> & S2spAuthModuleWiring;

/** Holds AuthModule and the retention of the audit trails it writes to. */
@Module({})
export class S2spAuthModule {}

/** Holds the settings of one s2spAuthModule, for AuthModule and the audit retention to read. */
@Module({})
class S2spAuthSettingsModule {}

const S2SP_AUTH_SETTINGS = Symbol('S2SP_AUTH_SETTINGS');

/**
 * AuthModule whose decisions are audited in `s2sp_audit_event` (unless
 * `auditSink` says otherwise), in the S2spModule database or in the
 * SqlDatabase behind `database`, which must be provided globally. Audit
 * records older than `auditRetention` are deleted (default DEFAULT_AUDIT_RETENTION:
 * 30 days; an app configured from the environment passes auditRetentionFromEnv()).
 * @public
 */
export function s2spAuthModule(
  options: AuthModuleOptions,
  database: InjectionToken = S2SP_DATABASE,
  auditRetention: AuditRetentionOptions = DEFAULT_AUDIT_RETENTION,
): DynamicModule {
  resolveAuthOptions(options); // a bad option fails here, as AuthModule.forRoot's does, not when the app starts
  const { approvalProvider, auditSink, ...auth } = options;
  const settings: S2spAuthSettings = { auth, auditRetention };
  return buildS2spAuthModule([{ provide: S2SP_AUTH_SETTINGS, useValue: settings }], [], {
    database,
    approvalProvider,
    auditSink,
  });
}

/**
 * s2spAuthModule with its settings made at run time, e.g. from a configuration
 * module: `s2spAuthModuleAsync({ imports: [ConfigModule], inject: [CONFIG], useFactory: (c) => ({ auth: c.auth }) })`.
 * The approval provider and the audit sink are given beside the source: in the
 * settings they are refused, naming them (Nest would never see them).
 * @public
 */
export function s2spAuthModuleAsync(options: S2spAuthModuleAsyncOptions): DynamicModule {
  const settings = asyncOptionsProviders('s2spAuthModule', S2SP_AUTH_SETTINGS, options, (made: S2spAuthSettings) => {
    refuseAuthProviders(made.auth);
    return made;
  });
  return buildS2spAuthModule(settings, options.imports ?? [], options);
}

function buildS2spAuthModule(
  settingsProviders: Provider[],
  imports: NonNullable<ModuleMetadata['imports']>,
  { database = S2SP_DATABASE, approvalProvider, auditSink }: S2spAuthModuleWiring,
): DynamicModule {
  const settings = sharedOptionsModule(S2spAuthSettingsModule, S2SP_AUTH_SETTINGS, settingsProviders, imports);
  return {
    module: S2spAuthModule,
    imports: [
      settings,
      AuthModule.forRootAsync({
        imports: [settings],
        inject: [S2SP_AUTH_SETTINGS],
        useFactory: ({ auth }: S2spAuthSettings) => auth,
        approvalProvider,
        auditSink: auditSink ?? auditTable(database),
      }),
    ],
    providers: [
      {
        provide: AuditRetention,
        useFactory: (db: SqlDatabase, { auditRetention }: S2spAuthSettings) =>
          new AuditRetention(db.sql, auditRetention ?? DEFAULT_AUDIT_RETENTION),
        inject: [database, S2SP_AUTH_SETTINGS],
      },
    ],
    exports: [AuditRetention],
  };
}

/** The `s2sp_audit_event` table of the SqlDatabase behind `database`. */
function auditTable(database: InjectionToken): ProviderSpec<AuditSink> {
  return {
    useFactory: (db: SqlDatabase, metrics?: TelemetryMetrics) => new PrismaAuditSink(db, metrics),
    inject: [database, { token: TelemetryMetrics, optional: true }],
  };
}
