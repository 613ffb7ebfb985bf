import type { CreateMessageRequest, CreateMessageResultWithTools } from '@modelcontextprotocol/client';
import { HttpModelProvider, type ModelHttpRequest } from './http-model-provider';
import { ModelEndpointError } from './model-http-call';
import {
  blocksOf,
  resultContent,
  toolResultText,
  toolUseBlock,
  type ResultBlock,
  type SamplingParams,
} from './sampling-blocks';

type ChatMessage = Record<string, unknown>;

const STOP_REASONS: Record<string, string> = { stop: 'endTurn', length: 'maxTokens', tool_calls: 'toolUse' };

/**
 * A ModelProvider over an OpenAI-compatible Chat Completions endpoint (`POST <url>/chat/completions`):
 * OpenAI, and the many servers that speak its format (vLLM, Ollama, LiteLLM, …). MCP's tools and
 * tool results become function tools, `tool_calls` and `tool` messages; one tool call per answer.
 * @public
 */
export class OpenAiChatModelProvider extends HttpModelProvider {
  protected requestOf(params: CreateMessageRequest['params']): ModelHttpRequest {
    const body: Record<string, unknown> = {
      model: this.endpoint.model,
      max_tokens: params.maxTokens,
      messages: [
        ...(params.systemPrompt ? [{ role: 'system', content: params.systemPrompt }] : []),
        ...params.messages.flatMap(chatMessagesOf),
      ],
    };
    if (params.temperature !== undefined) body.temperature = params.temperature;
    if (params.stopSequences?.length) body.stop = params.stopSequences;
    if (params.tools?.length) {
      body.tools = params.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
      }));
      body.tool_choice = params.toolChoice?.mode ?? 'auto';
      body.parallel_tool_calls = false;
    }
    return {
      path: '/chat/completions',
      headers: this.apiKey === undefined ? {} : { authorization: `Bearer ${this.apiKey}` },
      body,
    };
  }

  protected resultOf(answer: unknown): CreateMessageResultWithTools {
    return chatCompletionResult(answer, this.endpoint.model);
  }
}

function chatMessagesOf(message: SamplingParams['messages'][number]): ChatMessage[] {
  const blocks = blocksOf(message.content);
  if (message.role === 'assistant') {
    const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const toolCalls = blocks.flatMap((block) =>
      block.type === 'tool_use'
        ? [{ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } }]
        : [],
    );
    return [
      { role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
    ];
  }
  const messages: ChatMessage[] = [];
  const parts: Array<Record<string, unknown>> = [];
  for (const block of blocks) {
    if (block.type === 'tool_result')
      messages.push({ role: 'tool', tool_call_id: block.toolUseId, content: toolResultText(block) });
    else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image')
      parts.push({ type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } });
    else throw new ModelEndpointError(`a ${block.type} block cannot be sent to an OpenAI-compatible chat endpoint`);
  }
  if (parts.length > 0)
    messages.push({ role: 'user', content: parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts });
  return messages;
}

function chatCompletionResult(answer: unknown, configuredModel: string): CreateMessageResultWithTools {
  const { choices, model } = (answer ?? {}) as { choices?: unknown; model?: unknown };
  const choice = Array.isArray(choices) ? (choices[0] as { message?: unknown; finish_reason?: unknown }) : undefined;
  const message = choice?.message as { content?: unknown; tool_calls?: unknown } | undefined;
  if (!message) throw new ModelEndpointError('the model endpoint answered without choices[0].message');
  const blocks: ResultBlock[] = [];
  if (typeof message.content === 'string' && message.content !== '')
    blocks.push({ type: 'text', text: message.content });
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const { id, function: fn } = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof id !== 'string' || typeof fn?.name !== 'string')
      throw new ModelEndpointError('the model endpoint answered a tool call without an id or a function name');
    blocks.push(toolUseBlock(id, fn.name, fn.arguments ?? '{}'));
  }
  const finish = typeof choice?.finish_reason === 'string' ? choice.finish_reason : undefined;
  return {
    role: 'assistant',
    model: typeof model === 'string' ? model : configuredModel,
    ...(finish ? { stopReason: STOP_REASONS[finish] ?? finish } : {}),
    content: resultContent(blocks),
  };
}
