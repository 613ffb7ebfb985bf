import { Payload } from '@nestjs/microservices';
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { McpController, Prompt, Resource, ResourceTemplate } from '@rekog/mcp-nest';
import { promptArguments } from '@s2sp/core';
import { z } from 'zod';
import { PNG_BASE64 } from './media';

export const WATCHED_RESOURCE_URI = 'test://watched-resource';

const withArguments = z.object({
  arg1: z.string().describe('First test argument'),
  arg2: z.string().describe('Second test argument'),
});
const withResource = z.object({ resourceUri: z.string().describe('URI of the resource to embed') });

/** Text, binary and templated resources, and prompts with arguments, images and embedded resources. */
@McpController()
export class ResourcesAndPromptsController {
  @Resource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
  })
  staticText(): ReadResourceResult {
    return {
      contents: [
        { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    };
  }

  @Resource({ uri: 'test://static-binary', name: 'static-binary', description: 'A PNG image.', mimeType: 'image/png' })
  staticBinary(): ReadResourceResult {
    return { contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }] };
  }

  @Resource({
    uri: WATCHED_RESOURCE_URI,
    name: 'watched-resource',
    description: 'A resource clients may subscribe to.',
    mimeType: 'text/plain',
  })
  watched(): ReadResourceResult {
    return { contents: [{ uri: WATCHED_RESOURCE_URI, mimeType: 'text/plain', text: 'Watched resource content' }] };
  }

  @ResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    description: 'Data of one id.',
    mimeType: 'application/json',
  })
  template(@Payload() params: { id: string; uri: string }): ReadResourceResult {
    const body = { id: params.id, templateTest: true, data: `Data for ID: ${params.id}` };
    return { contents: [{ uri: params.uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
  }

  @Prompt({ name: 'test_simple_prompt', description: 'A prompt without arguments.' })
  simplePrompt(): GetPromptResult {
    return { messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] };
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    parameters: withArguments,
  })
  promptWithArguments(@Payload() args: unknown): GetPromptResult {
    const { arg1, arg2 } = promptArguments(withArguments, args, 'test_prompt_with_arguments');
    const text = `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  }

  @Prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    parameters: withResource,
  })
  promptWithResource(@Payload() args: unknown): GetPromptResult {
    const { resourceUri } = promptArguments(withResource, args, 'test_prompt_with_embedded_resource');
    return {
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    };
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image.' })
  promptWithImage(): GetPromptResult {
    return {
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    };
  }
}
