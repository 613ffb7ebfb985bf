import { callerFrom } from '@s2sp/auth';
import type { McpContext } from '@rekog/mcp-nest';
import { mcpServerContext, sealRequestState } from '../mcp-surfaces/mcp-request-context';
import { S2spToolError } from '../protocol/s2sp-error';

/** What the library seals around a consumer tool's state: which tool and whose call it continues. */
interface SealedConsumerState {
  s2spConsumer: { tool: string; caller: string | null };
  state: unknown;
}

/**
 * Seals a consumer tool's `state` into the `requestState` of the `InputRequiredResult` it
 * answers after its rows were fetched (e.g. to ask the client's model for a summary). The
 * `resource_url` is spent by then: when the client calls again with the state, the rows are
 * not fetched again (the tool gets `rows: []`) and the tool reads its state back with
 * {@link consumerState}. The state is bound to the tool and to the caller, signed and expiring
 * (see `sealRequestState`); it is not encrypted: the client can read it.
 * @public
 */
export async function sealConsumerState(context: McpContext, state: unknown): Promise<string> {
  const sealed: SealedConsumerState = { s2spConsumer: bindingOf(context), state };
  return sealRequestState(context, sealed);
}

/**
 * The state a consumer tool sealed with {@link sealConsumerState} in an earlier round of this
 * call, or undefined on a first round.
 * @public
 */
export function consumerState<T>(context: McpContext): T | undefined {
  const sealed = sealedStateOf(context);
  return sealed === undefined ? undefined : (sealed.state as T);
}

/**
 * Whether this call continues an earlier round of the same tool for the same caller (its rows
 * were fetched then). A request state that belongs to another tool or caller is refused.
 */
export function isConsumerContinuation(context: McpContext | undefined): boolean {
  return context !== undefined && sealedStateOf(context) !== undefined;
}

function sealedStateOf(context: McpContext): SealedConsumerState | undefined {
  const echoed = mcpServerContext(context).mcpReq.requestState<Partial<SealedConsumerState> | null>();
  if (echoed === undefined) return undefined;
  const binding = echoed?.s2spConsumer;
  const expected = bindingOf(context);
  if (binding?.tool !== expected.tool || binding.caller !== expected.caller)
    throw new S2spToolError('The requestState of this call was not issued for this tool and caller.');
  return { s2spConsumer: binding, state: echoed?.state };
}

function bindingOf(context: McpContext): SealedConsumerState['s2spConsumer'] {
  const params = (context.mcpRequest as { params?: { name?: unknown } } | undefined)?.params;
  const raw = context.getRawRequest?.();
  return {
    tool: typeof params?.name === 'string' ? params.name : '',
    caller: raw === undefined ? null : (callerFrom(raw)?.subject ?? null),
  };
}
