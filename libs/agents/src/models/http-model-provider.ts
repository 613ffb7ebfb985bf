import type { CreateMessageRequest, CreateMessageResultWithTools } from '@modelcontextprotocol/client';
import type { ModelProvider, SamplingRequestContext } from '../sampling/model-provider';
import {
  DEFAULT_MODEL_MAX_RESPONSE_BYTES,
  DEFAULT_MODEL_TIMEOUT_MS,
  modelApiKey,
  type ModelEndpointConfig,
} from './model-endpoint-config';
import { postModelJson } from './model-http-call';

/**
 * One request to a model endpoint: the path under its base URL, the headers, the JSON body.
 * @public
 */
export interface ModelHttpRequest {
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * A ModelProvider over an HTTP model endpoint: its key read when the agents start, each request
 * made within the endpoint's limits; a subclass writes the request and reads the answer in its
 * wire format (OpenAiChatModelProvider, AnthropicMessagesModelProvider).
 * @public
 */
export abstract class HttpModelProvider implements ModelProvider {
  protected readonly apiKey: string | undefined;

  constructor(protected readonly endpoint: ModelEndpointConfig) {
    this.apiKey = modelApiKey(endpoint);
  }

  async createMessage(
    params: CreateMessageRequest['params'],
    context: SamplingRequestContext,
  ): Promise<CreateMessageResultWithTools> {
    const request = this.requestOf(params);
    const answer = await postModelJson(
      `${this.endpoint.url.replace(/\/+$/, '')}${request.path}`,
      request.headers,
      request.body,
      {
        timeoutMs: this.endpoint.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
        maxResponseBytes: this.endpoint.maxResponseBytes ?? DEFAULT_MODEL_MAX_RESPONSE_BYTES,
        signal: context.signal,
      },
    );
    return this.resultOf(answer);
  }

  /** The request for these sampling parameters, in the endpoint's wire format. */
  protected abstract requestOf(params: CreateMessageRequest['params']): ModelHttpRequest;

  /** The endpoint's answer as an MCP sampling result; a ModelEndpointError when it cannot be read. */
  protected abstract resultOf(answer: unknown): CreateMessageResultWithTools;
}
