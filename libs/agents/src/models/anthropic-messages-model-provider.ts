import type { CreateMessageRequest, CreateMessageResultWithTools } from '@modelcontextprotocol/client';
import { HttpModelProvider, type ModelHttpRequest } from './http-model-provider';
import { ModelEndpointError } from './model-http-call';
import { blocksOf, resultContent, toolResultText, toolUseBlock, type ResultBlock } from './sampling-blocks';

/** The Messages API version these requests are written for. */
const ANTHROPIC_VERSION = '2023-06-01';

const STOP_REASONS: Record<string, string> = {
  end_turn: 'endTurn',
  max_tokens: 'maxTokens',
  stop_sequence: 'stopSequence',
  tool_use: 'toolUse',
};

const TOOL_CHOICE: Record<string, Record<string, unknown>> = {
  auto: { type: 'auto', disable_parallel_tool_use: true },
  required: { type: 'any', disable_parallel_tool_use: true },
  none: { type: 'none' },
};

/**
 * A ModelProvider over the Anthropic Messages API (`POST <url>/messages`). MCP's tool_use and
 * tool_result blocks map one to one; one tool call per answer.
 * @public
 */
export class AnthropicMessagesModelProvider extends HttpModelProvider {
  protected requestOf(params: CreateMessageRequest['params']): ModelHttpRequest {
    const body: Record<string, unknown> = {
      model: this.endpoint.model,
      max_tokens: params.maxTokens,
      messages: params.messages.map((message) => ({
        role: message.role,
        content: blocksOf(message.content).map(anthropicBlockOf),
      })),
    };
    if (params.systemPrompt) body.system = params.systemPrompt;
    if (params.temperature !== undefined) body.temperature = params.temperature;
    if (params.stopSequences?.length) body.stop_sequences = params.stopSequences;
    if (params.tools?.length) {
      body.tools = params.tools.map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        input_schema: tool.inputSchema,
      }));
      body.tool_choice = TOOL_CHOICE[params.toolChoice?.mode ?? 'auto'];
    }
    return {
      path: '/messages',
      headers: {
        'anthropic-version': ANTHROPIC_VERSION,
        ...(this.apiKey === undefined ? {} : { 'x-api-key': this.apiKey }),
      },
      body,
    };
  }

  protected resultOf(answer: unknown): CreateMessageResultWithTools {
    return messagesResult(answer, this.endpoint.model);
  }
}

function anthropicBlockOf(block: ReturnType<typeof blocksOf>[number]): Record<string, unknown> {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', source: { type: 'base64', media_type: block.mimeType, data: block.data } };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: [{ type: 'text', text: toolResultText(block) }],
        ...(block.isError ? { is_error: true } : {}),
      };
    default:
      throw new ModelEndpointError(`a ${block.type} block cannot be sent to the Anthropic Messages API`);
  }
}

function messagesResult(answer: unknown, configuredModel: string): CreateMessageResultWithTools {
  const { content, stop_reason, model } = (answer ?? {}) as {
    content?: unknown;
    stop_reason?: unknown;
    model?: unknown;
  };
  if (!Array.isArray(content)) throw new ModelEndpointError('the model endpoint answered without a content list');
  const blocks: ResultBlock[] = [];
  for (const block of content as Array<Record<string, unknown>>) {
    if (block.type === 'text' && typeof block.text === 'string') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string')
        throw new ModelEndpointError('the model endpoint answered a tool_use block without an id or a name');
      blocks.push(toolUseBlock(block.id, block.name, block.input ?? {}));
    }
  }
  return {
    role: 'assistant',
    model: typeof model === 'string' ? model : configuredModel,
    ...(typeof stop_reason === 'string' ? { stopReason: STOP_REASONS[stop_reason] ?? stop_reason } : {}),
    content: resultContent(blocks),
  };
}
