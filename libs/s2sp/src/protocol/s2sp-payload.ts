import { z } from 'zod';
import type { Row } from './row';

/** The control-plane answer of a resource tool called with abstract_domains. */
export interface S2spResourcePayload {
  total_rows: number;
  columns: string[];
  abstract_domains: string[];
  body_domains: string[];
  /** Async mode only: the single-use capability URL of the cached body. */
  resource_url?: string;
  abstract: Row[];
  /** Sync mode only: the body rows, for the agent's SDK layer, not the model. */
  body?: Row[];
}

const rowSchema = z.record(z.string(), z.unknown());

/**
 * Output schema of every resource tool. Plain calls (no abstract_domains)
 * answer `{ result: rows }`, the shape MCP SDKs use for list results; S2SP
 * calls answer the S2SP envelope.
 */
export const resourceToolOutputSchema = z.object({
  result: z.array(rowSchema).optional().describe('Plain MCP call: every row, every column.'),
  total_rows: z.number().int().nonnegative().optional(),
  columns: z.array(z.string()).optional(),
  abstract_domains: z.array(z.string()).optional(),
  body_domains: z.array(z.string()).optional(),
  resource_url: z.string().optional(),
  abstract: z.array(rowSchema).optional(),
  body: z.array(rowSchema).optional(),
});
