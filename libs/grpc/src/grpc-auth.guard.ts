import { Injectable, type ExecutionContext } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { GRPC_ERROR_METADATA } from '@s2sp/contracts';
import {
  AuthError,
  PermissionDeniedError,
  ProtocolAuthGuard,
  ScopeWideningError,
  type AuthErrorCode,
} from '@s2sp/auth';
import { attachCaller, traceIdFrom } from '@s2sp/auth/internal';

/** Trailing-metadata key with the platform code the gateway maps to JSON-RPC (4001/4002/4003). */
export const GRPC_ERROR_CODE_METADATA = GRPC_ERROR_METADATA.ERROR_CODE;

/** True for @grpc/grpc-js Metadata (duck-typed: a second copy of the package defeats instanceof). */
export function isGrpcMetadata(value: unknown): value is Metadata {
  return (
    value instanceof Metadata ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Metadata).get === 'function' &&
      typeof (value as Metadata).getMap === 'function' &&
      typeof (value as Metadata).toHttp2Headers === 'function')
  );
}

/**
 * Bearer authentication + @RequireScopes / @MutationClass authorization for Nest
 * gRPC handlers (context 'rpc' with gRPC Metadata; other contexts are left to
 * their own guard). Reads the `authorization` metadata; on success
 * `callerFrom(metadata)` is the identity. Failures are
 * `RpcException({ code: UNAUTHENTICATED | PERMISSION_DENIED, message, metadata })`
 * with `x-s2sp-error-code` (4001/4002/4003) in the trailers, and for a missing
 * scope `x-s2sp-missing-scopes` naming them.
 * @public
 */
@Injectable()
export class GrpcAuthGuard extends ProtocolAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'rpc') return true;
    const metadata: unknown = context.switchToRpc().getContext();
    if (!isGrpcMetadata(metadata)) return true;
    const requirements = this.requirements.read(context);
    if (requirements.allowAnonymous) return true;
    const call = context.getArgByIndex<{ getPath?: () => string; getPeer?: () => string } | undefined>(2);
    const target = {
      protocol: 'grpc' as const,
      service: this.options.audience,
      operation: grpcOperation(call, context),
      traceId: traceIdFrom(metadata.get('traceparent')[0], metadata.get('x-trace-id')[0]),
      remoteAddress: safe(() => call?.getPeer?.()),
    };
    try {
      const grant = await this.gate.check(metadata.get('authorization'), requirements, target);
      attachCaller(metadata, grant.identity);
      return true;
    } catch (error) {
      throw toRpcException(error);
    }
  }
}

const GRPC_STATUS_OF: Readonly<Record<AuthErrorCode, GrpcStatus>> = {
  UNAUTHENTICATED: GrpcStatus.UNAUTHENTICATED,
  PERMISSION_DENIED: GrpcStatus.PERMISSION_DENIED,
  APPROVAL_REQUIRED: GrpcStatus.PERMISSION_DENIED,
};

/**
 * An AuthError as the RpcException Nest's gRPC server turns into a status; other errors unchanged.
 * @public
 */
export function toRpcException(error: unknown): unknown {
  if (!(error instanceof AuthError)) return error;
  const trailers = new Metadata();
  trailers.set(GRPC_ERROR_CODE_METADATA, String(error.jsonRpcCode));
  if (
    (error instanceof PermissionDeniedError || error instanceof ScopeWideningError) &&
    error.missingScopes.length > 0
  ) {
    trailers.set(GRPC_ERROR_METADATA.MISSING_SCOPES, error.missingScopes.join(' '));
  }
  return new RpcException({
    code: GRPC_STATUS_OF[error.code],
    message: error.message,
    details: error.message,
    metadata: trailers,
  });
}

function grpcOperation(call: { getPath?: () => string } | undefined, context: ExecutionContext): string {
  const path = safe(() => call?.getPath?.());
  return typeof path === 'string' && path !== '' ? path : `${context.getClass().name}.${context.getHandler().name}`;
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
