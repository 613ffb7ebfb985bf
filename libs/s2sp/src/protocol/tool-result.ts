import type { LoggerService } from '@nestjs/common';
import { catchError, type OperatorFunction, of, throwError } from 'rxjs';
import { S2spToolError } from './s2sp-error';

/** The MCP CallToolResult shape S2SP tools answer with. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * JSON both as text (older clients, and what the model reads) and as
 * structuredContent (clients that honour outputSchema).
 */
export function toolJsonResult(structured: Record<string, unknown>, text: unknown = structured): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(text) }], structuredContent: structured };
}

/**
 * A tool error the caller can read. Messages of S2spToolError are written for
 * the caller; anything else is unexpected and reported without its details.
 */
export function toolErrorResult(error: unknown, logger: Pick<LoggerService, 'error'>): ToolResult {
  if (error instanceof S2spToolError) return { content: [{ type: 'text', text: error.message }], isError: true };
  logger.error(error instanceof Error ? `${error.name}: ${error.message}` : 'non-Error thrown', error instanceof Error ? error.stack : undefined);
  return { content: [{ type: 'text', text: 'The S2SP tool failed unexpectedly; see the server log.' }], isError: true };
}

export function isToolErrorResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResult).content) && (value as ToolResult).isError === true;
}

/**
 * Lets tool methods report caller errors by throwing S2spToolError: it becomes
 * a readable tool error. Anything else goes on to Nest's exception handling.
 */
export function reportToolErrors<T>(): OperatorFunction<T, T | ToolResult> {
  return catchError((error: unknown) =>
    error instanceof S2spToolError
      ? of<ToolResult>({ content: [{ type: 'text', text: error.message }], isError: true })
      : throwError(() => error),
  );
}
