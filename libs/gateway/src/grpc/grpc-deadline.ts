import { budgetUntil } from '@s2sp/platform';
import { JsonRpcError, type JsonRpcCallContext } from '@s2sp/json-rpc';
import type { GatewayConfig } from '../gateway.config';

/**
 * The absolute deadline of the gRPC call made for a JSON-RPC call, so the
 * client's deadline carries on to the agents: the call's own deadline minus the time reserved for
 * answering. When less than the minimum useful budget is left, the call is not
 * made and the client gets -32000 with hop "gateway.dispatch".
 */
export function grpcDeadlineFor(
  ctx: Pick<JsonRpcCallContext, 'deadline'>,
  settings: GatewayConfig['grpc'],
  now = Date.now(),
): number {
  const budget = budgetUntil(
    ctx.deadline,
    { reserveMs: settings.deadlineReserveMs, minimumMs: settings.minimumBudgetMs },
    now,
  );
  if (!budget.sufficient) {
    throw JsonRpcError.deadlineExceeded('gateway.dispatch', {
      remaining_ms: Math.max(0, budget.remainingMs),
      minimum_ms: budget.neededMs,
    });
  }
  return ctx.deadline - settings.deadlineReserveMs;
}
