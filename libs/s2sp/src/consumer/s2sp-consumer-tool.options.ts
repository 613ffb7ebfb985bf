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
}
