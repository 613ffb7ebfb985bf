import { textOfContent, type McpToolResult } from './mcp-tool-result';
import type { S2spResourceAnswer } from '@s2sp/agent';

/**
 * The text a model would read of a tool result: its text blocks, except for
 * an S2SP sync answer, whose body the agent's SDK layer keeps out of the
 * context; there the model reads the control-plane JSON (the answer without
 * `body`).
 */
export function modelVisibleText(result: McpToolResult, answer: S2spResourceAnswer | undefined): string {
  if (answer?.body !== undefined) return JSON.stringify(answer.controlPlane);
  return textOfContent(result);
}
