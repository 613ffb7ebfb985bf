import type {
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/client';

/**
 * Injection token of the {@link ModelProvider} that answers `sampling/createMessage` (default: RefusingModelProvider).
 * @public
 */
export const MODEL_PROVIDER = Symbol('S2SP_AGENTS_MODEL_PROVIDER');

/**
 * Who asked for a completion: the MCP server, and the task whose tool call it is serving when there is one.
 * @public
 */
export interface SamplingRequestContext {
  serverId: string;
  taskId?: string;
  signal: AbortSignal;
}

/**
 * The language model behind the agents' sampling. It sees a request only after
 * the sampling policy allowed it (model hints already narrowed to the allowed ones).
 * @public
 */
export interface ModelProvider {
  /** A request with `tools` may be answered with tool_use blocks (CreateMessageResultWithTools). */
  createMessage(
    params: CreateMessageRequest['params'],
    context: SamplingRequestContext,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
}
