import { inputRequired, inputResponse, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { McpContext } from '@rekog/mcp-nest';
import { mcpClientCapabilities, mcpServerContext } from '../mcp-surfaces/mcp-request-context';
import { S2spToolError } from '../protocol/s2sp-error';
import type { ToolResult } from '../protocol/tool-result';
import type { S2spConsumerConfirmation } from './s2sp-consumer-tool.options';

/** The key of the confirmation in `inputRequests` / `inputResponses`. */
export const CONFIRMATION_KEY = 's2sp_confirm';

/** What the gate decided: go on, or answer the call with `result` (a question or a refusal). */
export type ConfirmationGate = { proceed: true } | { proceed: false; result: InputRequiredResult | ToolResult };

/**
 * Whether a consumer call may act: yes once the user accepted the confirmation; a refusal when
 * the user declined (nothing fetched) or cannot be asked; else the question, as an InputRequiredResult.
 */
export function confirmationGate(
  context: McpContext | undefined,
  confirmation: S2spConsumerConfirmation,
  args: Record<string, unknown>,
  rows: number,
): ConfirmationGate {
  if (!context) throw new S2spToolError('This call needs the user’s confirmation, and there is no MCP client to ask.');
  const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, CONFIRMATION_KEY);
  if (answer.kind === 'elicit') {
    if (answer.action === 'accept' && answer.content?.['confirm'] === true) return { proceed: true };
    return {
      proceed: false,
      result: {
        content: [{ type: 'text', text: 'Not done: the user did not confirm. No rows were fetched.' }],
        isError: true,
      },
    };
  }
  if (!canElicit(context))
    throw new S2spToolError(
      'This call needs the user’s confirmation, and the client cannot ask (it declares no elicitation capability).',
    );
  return {
    proceed: false,
    result: inputRequired({
      inputRequests: {
        [CONFIRMATION_KEY]: inputRequired.elicit({
          message: confirmation.message(args, rows),
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Go ahead?' } },
            required: ['confirm'],
          },
        }),
      },
    }),
  };
}

function canElicit(context: McpContext): boolean {
  return mcpClientCapabilities(context)?.elicitation !== undefined;
}
