import { UseFilters } from '@nestjs/common';
import { Ctx } from '@nestjs/microservices';
import {
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  type CallToolResult,
  type GetPromptResult,
} from '@modelcontextprotocol/server';
import { McpController, Prompt, Tool, type McpContext } from '@rekog/mcp-nest';
import { McpProtocolErrorFilter, mcpServerContext } from '@s2sp/core';
import { ListMutations } from './list-mutations';
import { text } from './results';

/** The suite's probes of the 2026-07-28 protocol: capabilities, streams, logging and list changes. */
@McpController()
// A missing client capability reaches the client as the protocol error it is (-32021, HTTP 400).
@UseFilters(McpProtocolErrorFilter)
export class DiagnosticsController {
  constructor(private readonly lists: ListMutations) {}

  @Tool({ name: 'test_missing_capability', description: 'Needs the sampling capability of the client.' })
  missingCapability(@Ctx() context: McpContext): CallToolResult {
    if (!context.getClientCapabilities()?.sampling)
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
    return text('Success');
  }

  @Tool({
    name: 'test_streaming_elicitation',
    description: 'Reports progress on its stream, then asks for input with an InputRequiredResult.',
  })
  async streamingElicitation(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    await context.reportProgress({ progress: 50, total: 100 });
    const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, 'answer');
    if (answer.kind === 'elicit') return text(`Streaming complete: ${answer.action}`);
    return inputRequired({
      inputRequests: {
        answer: inputRequired.elicit({
          message: 'Continue?',
          requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] },
        }),
      },
    });
  }

  @Tool({ name: 'test_logging_tool', description: 'Logs a message: sent only when the request asked for a log level.' })
  logging(@Ctx() context: McpContext): CallToolResult {
    context.log.info('Diagnostic trace logging activated');
    return text('Logging evaluated');
  }

  @Tool({ name: 'test_trigger_tool_change', description: 'Changes the tool list.' })
  triggerToolChange(): CallToolResult {
    this.lists.toggleTool();
    return text('Mutation triggered');
  }

  @Tool({ name: 'test_trigger_prompt_change', description: 'Changes the prompt list.' })
  triggerPromptChange(): CallToolResult {
    this.lists.togglePrompt();
    return text('Mutation triggered');
  }

  @Prompt({ name: 'test_input_required_result_prompt', description: 'A prompt that first asks the user for context.' })
  promptWithInput(@Ctx() context: McpContext): GetPromptResult | ReturnType<typeof inputRequired> {
    const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, 'user_context');
    if (answer.kind === 'elicit' && answer.action === 'accept')
      return {
        messages: [
          { role: 'user', content: { type: 'text', text: `Prompt with context: ${String(answer.content?.context)}` } },
        ],
      };
    return inputRequired({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
        }),
      },
    });
  }
}
