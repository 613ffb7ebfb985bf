import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { ModelProvider } from './model-provider';
import { samplingRefusal } from './sampling-refusal';

export const NO_MODEL_PROVIDER_MESSAGE = 'sampling is not configured on these agents: provide MODEL_PROVIDER';

/**
 * The default ModelProvider: the agents ship without a model, so every allowed request is still declined, clearly.
 * @public
 */
export class RefusingModelProvider implements ModelProvider {
  async createMessage(): Promise<CreateMessageResult> {
    throw samplingRefusal(NO_MODEL_PROVIDER_MESSAGE);
  }
}
