import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { status } from '@grpc/grpc-js';
import { grpcError, INVALID_INPUT_HINT } from './grpc-errors';
import { undecodableReason } from './lenient-request-deserializer';

/** Answers a request protobuf could not decode (see deserializeRequestsLeniently) with INVALID_ARGUMENT. */
@Injectable()
export class UndecodableRequestGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'rpc') return true;
    const reason = undecodableReason(context.switchToRpc().getData());
    if (reason === undefined) return true;
    throw grpcError(status.INVALID_ARGUMENT, `request: could not be decoded (${reason})`, {
      recoveryHint: INVALID_INPUT_HINT,
    });
  }
}
