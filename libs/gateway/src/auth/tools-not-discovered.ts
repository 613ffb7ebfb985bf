import { JsonRpcError, RECOVERY_HINT } from '@s2sp/json-rpc';
import { JsonRpcErrorCode } from '@s2sp/json-rpc/internal';

/**
 * A call names tools the agents have not listed (yet): right after a start they
 * may still be connecting to the MCP servers. Answered as the agents being
 * partly unavailable, with when to retry, rather than forwarded with a token
 * that lacks the tools' scopes (which the agents would refuse as a scope
 * error the caller cannot fix).
 */
export function toolsNotDiscovered(names: readonly string[], retryAfterMs: number): JsonRpcError {
  const list = names.join(', ');
  return new JsonRpcError(JsonRpcErrorCode.UPSTREAM_UNAVAILABLE, `Tool not (yet) discovered by the agents: ${list}`, {
    downstream: 'agents',
    tools: [...names],
    reason: 'The agents list no such tool; they may not have reached its MCP server yet, or it does not exist',
    retry_after: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    recovery_hint: RECOVERY_HINT.RETRY_AFTER,
  });
}
