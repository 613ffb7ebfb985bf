import { JsonRpcError, type JsonRpcCallContext } from '@s2sp/json-rpc';
import type { GatewayConfig } from '../gateway.config';

/**
 * The absolute deadline of the gRPC call made for a JSON-RPC call, so the
 * client's deadline carries on to the agents: the call's own deadline minus the time reserved for
 * answering. When less than the minimum useful budget is left, the call is not
 * made and the client gets -32000 with hop "gateway.dispatch".
 */
export function grpcDeadlineFor(ctx: Pick<JsonRpcCallContext, 'deadline'>, settings: GatewayConfig['grpc'], now = Date.now()): number {
  const deadline = ctx.deadline - settings.deadlineReserveMs;
  if (deadline - now < settings.minimumBudgetMs) {
    throw JsonRpcError.deadlineExceeded('gateway.dispatch', {
      remaining_ms: Math.max(0, ctx.deadline - now),
      minimum_ms: settings.minimumBudgetMs + settings.deadlineReserveMs,
    });
  }
  return deadline;
}
