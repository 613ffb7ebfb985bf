import type { ToolAnnotations } from '@rekog/mcp-nest';
import type { z } from 'zod';

/** @public */
export interface S2spConsumerToolOptions {
  /** MCP tool name; defaults to the method name. */
  name?: string;
  description: string;
  /** Extra parameters of your own, next to the four S2SP strings. */
  parameters?: z.ZodObject;
  annotations?: ToolAnnotations;
  /**
   * Scopes a caller must hold (enforced when the app imports AuthModule, and
   * published in the tool's `_meta["s2sp/scopes"]`). A consumer's data-plane
   * fetch carries the caller's other scopes, never these.
   */
  scopes?: string[];
  /** Ask the user to confirm before the rows are fetched and the method runs. */
  confirm?: S2spConsumerConfirmation;
}

/**
 * A question the user must answer yes to before a consumer tool acts. The question is asked
 * before the rows are fetched, so a call the user declines claims nothing: its `resource_url`
 * stays unused. A 2026-07-28 client gets an `InputRequiredResult` (an elicitation) and calls
 * again with the answer; on a 2025-era session the server sends the elicitation itself. A client
 * that declares no elicitation capability cannot be asked, and the call is refused.
 * @public
 */
export interface S2spConsumerConfirmation {
  /** The question, from the call's own arguments and the number of rows it hands the tool. */
  message: (args: Record<string, unknown>, rows: number) => string;
  /** Whether this call needs the confirmation. Default: every call. */
  when?: (args: Record<string, unknown>, rows: number) => boolean;
}
