import type { CreateMessageRequest, CreateMessageResultWithTools } from '@modelcontextprotocol/client';

export type SamplingParams = CreateMessageRequest['params'];
export type SamplingBlock = Extract<SamplingParams['messages'][number]['content'], { type: string }>;
export type ResultBlock = Extract<CreateMessageResultWithTools['content'], { type: string }>;

/** `_meta` key of a tool_use block whose arguments the model wrote as something other than a JSON object: the raw text. */
export const UNPARSED_TOOL_INPUT = 's2sp/unparsed_tool_input';

/** A message's content as a list of blocks (MCP allows one block or an array). */
export function blocksOf(content: SamplingParams['messages'][number]['content']): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** The text of the text blocks of a tool result's content, joined by newlines. */
export function toolResultText(block: Extract<SamplingBlock, { type: 'tool_result' }>): string {
  return block.content
    .filter((part): part is Extract<typeof part, { type: 'text' }> => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** A tool_use block from the model's arguments: parsed when they are a JSON object, else kept raw in `_meta`. */
export function toolUseBlock(id: string, name: string, input: unknown): ResultBlock {
  if (typeof input === 'string') {
    try {
      return toolUseBlock(id, name, JSON.parse(input) as unknown);
    } catch {
      return { type: 'tool_use', id, name, input: {}, _meta: { [UNPARSED_TOOL_INPUT]: input } };
    }
  }
  if (typeof input === 'object' && input !== null && !Array.isArray(input))
    return { type: 'tool_use', id, name, input: input as Record<string, unknown> };
  return { type: 'tool_use', id, name, input: {}, _meta: { [UNPARSED_TOOL_INPUT]: JSON.stringify(input) ?? '' } };
}

/** The result MCP expects: one block as itself, several as a list, none as an empty text. */
export function resultContent(blocks: ResultBlock[]): CreateMessageResultWithTools['content'] {
  if (blocks.length === 0) return { type: 'text', text: '' };
  return blocks.length === 1 ? blocks[0] : blocks;
}
