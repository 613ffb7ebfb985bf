/**
 * What `completion/complete` asks: which prompt or resource template, which argument, what was typed.
 * @public
 */
export interface McpCompletionRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  /** Arguments already filled in, when the client sends them. */
  context?: { arguments?: Record<string, string> };
}

/**
 * Suggestions for prompt and resource-template arguments (`completion/complete`).
 * Provide it under {@link MCP_COMPLETION_SOURCE} in the app's module; an
 * unknown prompt, template or argument gets no suggestions (an empty list).
 * @public
 */
export interface McpCompletionSource {
  complete(request: McpCompletionRequest): readonly string[] | Promise<readonly string[]>;
}

/** @public */
export const MCP_COMPLETION_SOURCE = Symbol('MCP_COMPLETION_SOURCE');

/** The most values one completion answer may carry (the MCP specification's limit). */
export const MAX_COMPLETION_VALUES = 100;
