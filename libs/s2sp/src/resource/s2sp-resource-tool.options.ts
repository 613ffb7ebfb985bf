import type { ToolAnnotations } from '@rekog/mcp-nest';
import type { z } from 'zod';

/** @public */
export interface S2spResourceToolOptions {
  /** MCP tool name; defaults to the method name. */
  name?: string;
  description: string;
  /** The method's own parameters. S2SP adds `abstract_domains`, `mode` and `abstract_format`. */
  parameters?: z.ZodObject;
  annotations?: ToolAnnotations;
  /**
   * Scopes a caller must hold (enforced when the app imports AuthModule, and
   * published in the tool's `_meta["s2sp/scopes"]`). They also travel with every
   * resource this tool issues: a consumer's fetch must hold them too.
   */
  scopes?: string[];
}
