import type { ModelProvider } from '../sampling/model-provider';
import { RefusingModelProvider } from '../sampling/refusing-model-provider';
import { AnthropicMessagesModelProvider } from './anthropic-messages-model-provider';
import type { ModelEndpointConfig } from './model-endpoint-config';
import { OpenAiChatModelProvider } from './openai-chat-model-provider';

/** The ModelProvider of a configured endpoint; without one, the provider that refuses every request. */
export function modelProviderFromConfig(endpoint: ModelEndpointConfig | undefined): ModelProvider {
  if (!endpoint) return new RefusingModelProvider();
  return endpoint.api === 'anthropic-messages'
    ? new AnthropicMessagesModelProvider(endpoint)
    : new OpenAiChatModelProvider(endpoint);
}
