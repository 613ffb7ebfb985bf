import type { LoggerService } from '@nestjs/common';
import { catchError, type OperatorFunction, of, throwError } from 'rxjs';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@s2sp/platform/internal';
import { S2spToolError } from './s2sp-error';
import { S2SP_META } from './s2sp-meta';

/**
 * The MCP CallToolResult shape S2SP tools answer with.
 * @beta
 */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The tool error for a caller-fixable problem, with its code (and hop) in `_meta` when known. */
export function s2spErrorResult(error: S2spToolError): ToolResult {
  const result: ToolResult = { content: [{ type: 'text', text: error.message }], isError: true };
  if (error.code) {
    result._meta = { [S2SP_META.ERROR_CODE]: error.code, ...(error.hop ? { [S2SP_META.ERROR_HOP]: error.hop } : {}) };
  }
  return result;
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
 * the caller; a database that cannot be reached is a retryable UNAVAILABLE; anything
 * else is unexpected and reported without its details.
 */
export function toolErrorResult(error: unknown, logger: Pick<LoggerService, 'error' | 'warn'>): ToolResult {
  if (error instanceof S2spToolError) return s2spErrorResult(error);
  if (isDatabaseUnavailable(error)) {
    logger.warn(
      `The server's database is unavailable: ${error instanceof Error ? error.message.trim() : String(error)}`,
    );
    return s2spErrorResult(
      new S2spToolError(
        `The server's database is unavailable right now; call the tool again in ${DATABASE_RETRY_AFTER_SECONDS} s or more.`,
        'UNAVAILABLE',
      ),
    );
  }
  logger.error(
    error instanceof Error ? `${error.name}: ${error.message}` : 'non-Error thrown',
    error instanceof Error ? error.stack : undefined,
  );
  return { content: [{ type: 'text', text: 'The S2SP tool failed unexpectedly; see the server log.' }], isError: true };
}

export function isToolErrorResult(value: unknown): value is ToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ToolResult).content) &&
    (value as ToolResult).isError === true
  );
}

/**
 * Lets tool methods report caller errors by throwing S2spToolError: it becomes
 * a readable tool error. Anything else goes on to Nest's exception handling.
 */
export function reportToolErrors<T>(): OperatorFunction<T, T | ToolResult> {
  return catchError((error: unknown) =>
    error instanceof S2spToolError ? of(s2spErrorResult(error)) : throwError(() => error),
  );
}
