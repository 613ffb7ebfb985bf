import { z } from 'zod';
import type { ColumnarRows } from './columnar-rows';
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

/**
 * The compact answer (`abstract_format: "columns"`, docs/compact-abstract.md):
 * rows in the columnar layout, and no list the rest of the answer implies
 * (`columns`, `abstract_domains`; `body_domains` when the body is inline).
 */
export interface S2spCompactResourcePayload {
  total_rows: number;
  /** Async mode only: the columns the cached body holds. */
  body_domains?: string[];
  /** Async mode only: the single-use capability URL of the cached body. */
  resource_url?: string;
  abstract: ColumnarRows;
  /** Sync mode only: the body rows, for the agent's SDK layer, not the model. */
  body?: ColumnarRows;
}

const rowSchema = z.record(z.string(), z.unknown());

const columnarRowsSchema = z.object({
  columns: z.array(z.string()).describe('Column names, _row_id first.'),
  rows: z.array(z.array(z.unknown())).describe('One array of values per row, in the order of columns.'),
});

const rowsSchema = z.union([z.array(rowSchema), columnarRowsSchema]);

/**
 * Output schema of every resource tool. Plain calls (no abstract_domains)
 * answer `{ result: rows }`, the shape MCP SDKs use for list results; S2SP
 * calls answer the S2SP envelope, in the default or the compact layout.
 * @public
 */
export const resourceToolOutputSchema = z.object({
  result: z.array(rowSchema).optional().describe('Plain MCP call: every row, every column.'),
  total_rows: z.number().int().nonnegative().optional(),
  columns: z.array(z.string()).optional(),
  abstract_domains: z.array(z.string()).optional(),
  body_domains: z.array(z.string()).optional(),
  resource_url: z.string().optional(),
  abstract: rowsSchema.optional(),
  body: rowsSchema.optional(),
});
