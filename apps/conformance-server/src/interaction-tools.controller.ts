import { Ctx, Payload } from '@nestjs/microservices';
import {
  inputRequired,
  inputResponse,
  type CallToolResult,
  type ElicitRequestFormParams,
  type InputRequest,
} from '@modelcontextprotocol/server';
import { McpController, Tool, type McpContext } from '@rekog/mcp-nest';
import { mcpServerContext, sealRequestState } from '@s2sp/core';
import { z } from 'zod';
import { text } from './results';

/** A form with one required field of `type`. */
function ask(message: string, field: string, type: 'string' | 'boolean' = 'string'): InputRequest {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] },
  });
}

/** The accepted value of `field` in the answer to `key`, as text. */
function answered(context: McpContext, key: string, field: string): string | undefined {
  const view = inputResponse(mcpServerContext(context).mcpReq.inputResponses, key);
  if (view.kind !== 'elicit' || view.action !== 'accept') return undefined;
  const value = view.content?.[field];
  return value === undefined ? undefined : String(value);
}

function sampledText(context: McpContext, key: string): string | undefined {
  const view = inputResponse(mcpServerContext(context).mcpReq.inputResponses, key);
  if (view.kind !== 'sampling') return undefined;
  const content = Array.isArray(view.result.content) ? view.result.content[0] : view.result.content;
  return content?.type === 'text' ? content.text : undefined;
}

function rootCount(context: McpContext, key: string): number | undefined {
  const view = inputResponse(mcpServerContext(context).mcpReq.inputResponses, key);
  return view.kind === 'roots' ? view.roots.length : undefined;
}

const SEP1034_FORM: ElicitRequestFormParams = {
  message: 'Please review and update the form fields with defaults',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'User name', default: 'John Doe' },
      age: { type: 'integer', description: 'User age', default: 30 },
      score: { type: 'number', description: 'User score', default: 95.5 },
      status: {
        type: 'string',
        description: 'User status',
        enum: ['active', 'inactive', 'pending'],
        default: 'active',
      },
      verified: { type: 'boolean', description: 'Verification status', default: true },
    },
    required: [],
  },
};

const SEP1330_FORM: ElicitRequestFormParams = {
  message: 'Please select options from the enum fields',
  requestedSchema: {
    type: 'object',
    properties: {
      untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
      titledSingle: {
        type: 'string',
        description: 'Select one option with titles',
        oneOf: [
          { const: 'value1', title: 'First Option' },
          { const: 'value2', title: 'Second Option' },
          { const: 'value3', title: 'Third Option' },
        ],
      },
      legacyEnum: {
        type: 'string',
        description: 'Select one option (legacy)',
        enum: ['opt1', 'opt2', 'opt3'],
        enumNames: ['Option One', 'Option Two', 'Option Three'],
      },
      untitledMulti: {
        type: 'array',
        description: 'Select multiple options',
        minItems: 1,
        maxItems: 3,
        items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
      },
      titledMulti: {
        type: 'array',
        description: 'Select multiple options with titles',
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: [
            { const: 'value1', title: 'First Choice' },
            { const: 'value2', title: 'Second Choice' },
            { const: 'value3', title: 'Third Choice' },
          ],
        },
      },
    },
    required: [],
  },
};

/**
 * Tools that ask the client for something: elicitation and sampling as server requests on a
 * 2025-era session, and as InputRequiredResults (2026-07-28), with sealed request state.
 */
@McpController()
export class InteractionToolsController {
  @Tool({
    name: 'test_elicitation',
    description: 'Asks the user for a response (elicitation) and echoes it.',
    parameters: z.object({ message: z.string().describe('The message to show the user') }),
  })
  async elicitation(@Payload() args: { message: string }, @Ctx() context: McpContext): Promise<CallToolResult> {
    const answer = await mcpServerContext(context).mcpReq.elicitInput({
      message: args.message,
      requestedSchema: {
        type: 'object',
        properties: { response: { type: 'string', description: "User's response" } },
        required: ['response'],
      },
    });
    return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @Tool({ name: 'test_elicitation_sep1034_defaults', description: 'Asks for a form whose fields have defaults.' })
  async elicitationDefaults(@Ctx() context: McpContext): Promise<CallToolResult> {
    const answer = await mcpServerContext(context).mcpReq.elicitInput(SEP1034_FORM);
    return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks for a form of every enum kind.' })
  async elicitationEnums(@Ctx() context: McpContext): Promise<CallToolResult> {
    const answer = await mcpServerContext(context).mcpReq.elicitInput(SEP1330_FORM);
    return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @Tool({ name: 'test_input_required_result_elicitation', description: 'Asks for a name, then greets.' })
  inputElicitation(@Ctx() context: McpContext): CallToolResult | ReturnType<typeof inputRequired> {
    const name = answered(context, 'user_name', 'name');
    if (name !== undefined) return text(`Hello, ${name}!`);
    return inputRequired({ inputRequests: { user_name: ask('What is your name?', 'name') } });
  }

  @Tool({ name: 'test_input_required_result_sampling', description: "Asks the client's model a question." })
  inputSampling(@Ctx() context: McpContext): CallToolResult | ReturnType<typeof inputRequired> {
    const reply = sampledText(context, 'sample_request');
    if (reply !== undefined) return text(`Sampling result: ${reply}`);
    return inputRequired({
      inputRequests: {
        sample_request: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        }),
      },
    });
  }

  @Tool({ name: 'test_input_required_result_list_roots', description: "Counts the client's roots." })
  inputRoots(@Ctx() context: McpContext): CallToolResult | ReturnType<typeof inputRequired> {
    const roots = rootCount(context, 'roots_request');
    if (roots !== undefined) return text(`Found ${roots} root(s)`);
    return inputRequired({ inputRequests: { roots_request: inputRequired.listRoots() } });
  }

  @Tool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation, with state.' })
  async inputRequestState(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const state = mcpServerContext(context).mcpReq.requestState<{ kind: string }>();
    if (state?.kind === 'request-state' && answered(context, 'confirm', 'ok') === 'true')
      return text('state-ok: requestState validated');
    return inputRequired({
      inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
      requestState: await sealRequestState(context, { kind: 'request-state' }),
    });
  }

  @Tool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a changed requestState is refused before this handler runs.',
  })
  async inputTampered(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const state = mcpServerContext(context).mcpReq.requestState<{ kind: string }>();
    if (state?.kind === 'tamper-test' && answered(context, 'confirm', 'ok') !== undefined)
      return text('integrity-ok: state verified');
    return inputRequired({
      inputRequests: { confirm: ask('Please confirm', 'ok', 'boolean') },
      requestState: await sealRequestState(context, { kind: 'tamper-test' }),
    });
  }

  @Tool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for three inputs at once.' })
  async inputMultiple(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const state = mcpServerContext(context).mcpReq.requestState<{ kind: string }>();
    const name = answered(context, 'user_name', 'name');
    const greeting = sampledText(context, 'greeting');
    const roots = rootCount(context, 'client_roots');
    if (state?.kind === 'multiple-inputs' && name !== undefined && greeting !== undefined && roots !== undefined)
      return text(`Name: ${name}; Greeting: ${greeting}; Roots: ${roots}`);
    return inputRequired({
      inputRequests: {
        user_name: ask('What is your name?', 'name'),
        greeting: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
          maxTokens: 50,
        }),
        client_roots: inputRequired.listRoots(),
      },
      requestState: await sealRequestState(context, { kind: 'multiple-inputs' }),
    });
  }

  @Tool({ name: 'test_input_required_result_multi_round', description: 'Asks for a name, then a colour.' })
  async inputMultiRound(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const state = mcpServerContext(context).mcpReq.requestState<{ round: number; name?: string }>();
    const name = answered(context, 'step1', 'name');
    if (state?.round === 1 && name !== undefined) {
      return inputRequired({
        inputRequests: { step2: ask('Step 2: What is your favorite color?', 'color') },
        requestState: await sealRequestState(context, { round: 2, name }),
      });
    }
    const color = answered(context, 'step2', 'color');
    if (state?.round === 2 && color !== undefined)
      return text(`Multi-round complete for ${state.name ?? 'friend'} who likes ${color}`);
    return inputRequired({
      inputRequests: { step1: ask('Step 1: What is your name?', 'name') },
      requestState: await sealRequestState(context, { round: 1 }),
    });
  }

  @Tool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the client declared it can answer.',
  })
  async inputCapabilities(@Ctx() context: McpContext): Promise<CallToolResult | ReturnType<typeof inputRequired>> {
    const received = Object.keys(mcpServerContext(context).mcpReq.inputResponses ?? {});
    if (received.length > 0) return text(`capabilities-ok: received ${received.join(',')}`);
    const declared = context.getClientCapabilities();
    const inputRequests: Record<string, InputRequest> = {};
    if (declared?.elicitation) inputRequests['elicit_input'] = ask('Elicitation input', 'value');
    if (declared?.sampling)
      inputRequests['sample_input'] = inputRequired.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
        maxTokens: 50,
      });
    if (Object.keys(inputRequests).length === 0) return text('No supported capabilities declared');
    return inputRequired({
      inputRequests,
      requestState: await sealRequestState(context, { kind: 'capabilities-test' }),
    });
  }
}
