import type { Type } from '@nestjs/common';
import type { ApprovalProvider, AuditSink, AuthModuleOptions } from '@s2sp/auth';
import { classOrValue } from '@s2sp/platform/internal';

/**
 * AuthModule's options that are providers: Nest registers them when the module is declared.
 * @public
 */
export type AuthProviderOptions = Pick<AuthModuleOptions, 'approvalProvider' | 'auditSink'>;

/**
 * AuthModule's providers as a module built on it takes them among its seams: a class (instantiated by Nest) or an instance.
 * @internal
 */
export interface AuthSeams {
  /** Decides the calls that need a person's approval, behind APPROVAL_PROVIDER; default: deny them all. */
  approvalProvider?: Type<ApprovalProvider> | ApprovalProvider;
  /** Where authorization decisions are recorded, behind AUDIT_SINK; default: the `s2sp_audit_event` table. */
  auditSink?: Type<AuditSink> | AuditSink;
}

/**
 * AuthModule's providers: those of `seams`, else those of `configured` (auth options given when the module is declared).
 * @internal
 */
export function authProviderOptions(seams: AuthSeams, configured: AuthProviderOptions = {}): AuthProviderOptions {
  return {
    approvalProvider:
      seams.approvalProvider === undefined ? configured.approvalProvider : classOrValue(seams.approvalProvider),
    auditSink: seams.auditSink === undefined ? configured.auditSink : classOrValue(seams.auditSink),
  };
}

/**
 * Refuses AuthModule's providers among auth options made at run time (by a
 * forRootAsync source): Nest registered the module's providers before the source
 * ran, so they would be ignored. Throws naming `setting` (where the options are).
 * @internal
 */
export function refuseAuthProviders(auth: Partial<AuthModuleOptions>, setting = 'auth'): void {
  for (const name of ['approvalProvider', 'auditSink'] as const) {
    if (auth[name] !== undefined) {
      throw new TypeError(
        `${setting}.${name} cannot be made at run time: Nest registers it as a provider before forRootAsync's source runs; pass ${name} to forRootAsync itself`,
      );
    }
  }
}
