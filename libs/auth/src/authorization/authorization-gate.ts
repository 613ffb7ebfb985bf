import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AUDIT_SINK, type AuditSink } from '../audit/audit-sink';
import type { AuditEvent, AuditOutcome } from '../audit/audit-event';
import { ApprovalRequiredError } from '../errors/approval-required-error';
import { AuthenticationError } from '../errors/authentication-error';
import { PermissionDeniedError } from '../errors/permission-denied-error';
import type { CallerIdentity } from '../identity/caller-identity';
import { TOKEN_VERIFIER, type TokenVerifier, type VerifyOptions } from '../identity/token-verifier';
import { redactTokens } from '../redaction/redact-tokens';
import { bearerFromHeader } from '../transport/bearer';
import { APPROVAL_PROVIDER, type ApprovalProvider } from './approval-provider';
import type { AuthorizationRequirements } from './authorization-requirements';
import type { AuthorizationTarget } from './authorization-target';
import { authorize, type AuthorizationGrant } from './authorize';

/** Injection token of the gate's own settings. */
export const AUTHORIZATION_GATE_OPTIONS = 'S2SP_AUTH_GATE_OPTIONS';

/** @public */
export interface AuthorizationGateOptions {
  approvalTimeoutMs?: number;
}

/**
 * The one place every protocol adapter (guards, middleware) goes through:
 * bearer extraction → token verification → {@link authorize} → one audit event
 * per decision, allow or deny. Throws the library's AuthError subclasses.
 * @public
 */
@Injectable()
export class AuthorizationGate {
  private readonly logger = new Logger('S2spAuth');

  constructor(
    @Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier,
    @Inject(APPROVAL_PROVIDER) private readonly approvals: ApprovalProvider,
    @Inject(AUDIT_SINK) private readonly audit: AuditSink,
    @Optional() @Inject(AUTHORIZATION_GATE_OPTIONS) private readonly options: AuthorizationGateOptions = {},
  ) {}

  /** Authentication, then authorization: what a guard does for one call. */
  async check(
    authorization: string | readonly unknown[] | undefined | null,
    requirements: AuthorizationRequirements,
    target: AuthorizationTarget,
    verifyOptions?: VerifyOptions,
  ): Promise<AuthorizationGrant> {
    const identity = await this.authenticate(authorization, requirements, target, verifyOptions);
    return this.authorize(identity, requirements, target);
  }

  /** The caller of a header value; a failure is audited (with its reason) and thrown. */
  async authenticate(
    authorization: string | readonly unknown[] | undefined | null,
    requirements: AuthorizationRequirements,
    target: AuthorizationTarget,
    verifyOptions?: VerifyOptions,
  ): Promise<CallerIdentity> {
    try {
      return await this.verifier.verify(bearerFromHeader(authorization), verifyOptions);
    } catch (error) {
      const failure =
        error instanceof AuthenticationError
          ? error
          : new AuthenticationError('verification-failed', error instanceof Error ? error.name : undefined);
      if (!(error instanceof AuthenticationError))
        this.logger.error(`token verification failed unexpectedly: ${failure.detail ?? 'unknown error'}`);
      return this.refuse(failure, requirements, target);
    }
  }

  /** Audits an authentication failure found elsewhere (e.g. no caller on an MCP request) and throws it. */
  async refuse(
    failure: AuthenticationError,
    requirements: AuthorizationRequirements,
    target: AuthorizationTarget,
  ): Promise<never> {
    await this.recordDenial(
      this.event('deny', 'unauthenticated', undefined, requirements, target, { authenticationFailure: failure.reason }),
    );
    throw failure;
  }

  /** Scope and approval checks for a verified caller; the decision is audited either way. */
  async authorize(
    identity: CallerIdentity,
    requirements: AuthorizationRequirements,
    target: AuthorizationTarget,
  ): Promise<AuthorizationGrant> {
    let grant: AuthorizationGrant;
    try {
      grant = await authorize(identity, requirements.requiredScopes, requirements.mutationClass, this.approvals, {
        target,
        approvalTimeoutMs: this.options.approvalTimeoutMs,
      });
    } catch (error) {
      if (error instanceof PermissionDeniedError) {
        await this.recordDenial(
          this.event('deny', 'missing-scopes', identity, requirements, target, { missingScopes: error.missingScopes }),
        );
      } else if (error instanceof ApprovalRequiredError) {
        await this.recordDenial(
          this.event('deny', 'approval-denied', identity, requirements, target, { approval: error.approval }),
        );
      }
      throw error;
    }
    // An allow that cannot be audited does not happen: a failing sink fails the call.
    await this.audit.record(
      this.event(
        'allow',
        'authorized',
        identity,
        requirements,
        target,
        grant.approval ? { approval: grant.approval } : {},
      ),
    );
    return grant;
  }

  private async recordDenial(event: AuditEvent): Promise<void> {
    try {
      await this.audit.record(event);
    } catch (error) {
      this.logger.error(
        `audit sink failed to record a denial: ${error instanceof Error ? error.name : 'unknown error'}`,
      );
    }
  }

  private event(
    decision: AuditEvent['decision'],
    outcome: AuditOutcome,
    identity: CallerIdentity | undefined,
    requirements: AuthorizationRequirements,
    target: AuthorizationTarget,
    extra: Partial<Pick<AuditEvent, 'authenticationFailure' | 'missingScopes' | 'approval'>>,
  ): AuditEvent {
    return {
      time: new Date().toISOString(),
      decision,
      outcome,
      ...(extra.authenticationFailure ? { authenticationFailure: extra.authenticationFailure } : {}),
      ...(identity
        ? {
            subject: identity.subject,
            issuer: identity.issuer,
            callerScopes: [...identity.scopes],
            ...(identity.clientId ? { clientId: identity.clientId } : {}),
            ...(identity.tokenId ? { tokenId: identity.tokenId } : {}),
          }
        : {}),
      delegatedBy: [...(identity?.delegatedBy ?? [])],
      protocol: target.protocol,
      service: target.service,
      operation: redactTokens(target.operation),
      requiredScopes: [...requirements.requiredScopes],
      missingScopes: [...(extra.missingScopes ?? [])],
      mutationClass: requirements.mutationClass,
      ...(extra.approval ? { approval: extra.approval } : {}),
      ...(target.traceId ? { traceId: target.traceId } : {}),
      ...(target.remoteAddress ? { remoteAddress: target.remoteAddress } : {}),
    };
  }
}
