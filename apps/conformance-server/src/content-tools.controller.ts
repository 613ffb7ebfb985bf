import { Ctx, Payload } from '@nestjs/microservices';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { McpController, Tool, type McpContext } from '@rekog/mcp-nest';
import { mcpParamHeaders, mcpServerContext } from '@s2sp/core';
import { z } from 'zod';
import { PNG_BASE64, WAV_BASE64 } from './media';
import { text } from './results';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The suite's JSON Schema 2020-12 fixture: advertised exactly as written ($schema, $defs, $anchor, if/then/else…). */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** Tools whose answers are the content types of MCP, plus errors, logging, progress and stream resumption. */
@McpController()
export class ContentToolsController {
  @Tool({ name: 'test_simple_text', description: 'Answers with one text block.' })
  simpleText(): CallToolResult {
    return text('This is a simple text response for testing.');
  }

  @Tool({ name: 'test_image_content', description: 'Answers with a PNG image.' })
  image(): CallToolResult {
    return { content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] };
  }

  @Tool({ name: 'test_audio_content', description: 'Answers with a WAV clip.' })
  audio(): CallToolResult {
    return { content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] };
  }

  @Tool({ name: 'test_embedded_resource', description: 'Answers with an embedded text resource.' })
  embeddedResource(): CallToolResult {
    return {
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    };
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Answers with text, an image and a resource.' })
  mixed(): CallToolResult {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    };
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails: the failure is a tool error (isError).' })
  failing(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Sends three log messages while it runs.' })
  async logging(@Ctx() context: McpContext): Promise<CallToolResult> {
    context.log.info('Tool execution started');
    await pause(50);
    context.log.info('Tool processing data');
    await pause(50);
    context.log.info('Tool execution completed');
    return text('Tool with logging executed successfully');
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100.' })
  async progress(@Ctx() context: McpContext): Promise<CallToolResult> {
    for (const done of [0, 50, 100]) {
      await context.reportProgress({ progress: done, total: 100, message: `Completed step ${done} of 100` });
      if (done < 100) await pause(50);
    }
    return text('Progress reported');
  }

  @Tool({
    name: 'test_reconnection',
    description: 'Closes its response stream mid-call; the client reconnects and still gets the answer.',
  })
  async reconnection(@Ctx() context: McpContext): Promise<CallToolResult> {
    mcpServerContext(context).http?.closeSSE?.();
    await pause(100);
    return text('Reconnection test completed successfully.');
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Takes arguments described with JSON Schema 2020-12 ($defs, $ref, if/then/else).',
    parameters: JSON_SCHEMA_2020_12_INPUT,
  })
  jsonSchema(@Payload() args: Record<string, unknown>): CallToolResult {
    return text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`);
  }

  @Tool({
    name: 'test_custom_headers',
    description: 'Takes parameters that clients mirror into Mcp-Param-* headers.',
    parameters: z.object({
      region: z.string().describe('Plain string value'),
      priority: z.number().int().optional().describe('Integer value'),
      verbose: z.boolean().optional().describe('Boolean value'),
    }),
    _meta: mcpParamHeaders({ region: 'Region', priority: 'Priority', verbose: 'Verbose' }),
  })
  customHeaders(@Payload() args: { region: string; priority?: number; verbose?: boolean }): CallToolResult {
    return text(`Headers matched: region=${args.region}`);
  }

  @Tool({
    name: 'test_sampling',
    description: "Asks the client's model (sampling) and answers with its reply.",
    parameters: z.object({ prompt: z.string().describe('The prompt to send to the model') }),
  })
  async sampling(@Payload() args: { prompt: string }, @Ctx() context: McpContext): Promise<CallToolResult> {
    const reply = await mcpServerContext(context).mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
      maxTokens: 100,
    });
    const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return text(`LLM response: ${content?.type === 'text' ? content.text : 'no text'}`);
  }
}
