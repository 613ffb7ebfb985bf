import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Tool } from '@rekog/mcp-nest';
import { S2SP_RESOURCE_EXTENSION_PARAMETERS } from '@s2sp/platform';
import { S2SP_RESOURCE_PARAMETERS } from '@s2sp/platform/internal';
import { z } from 'zod';
import { scopesMeta, ToolScopesGuard } from '../auth/tool-scopes';
import { DATA_PLANE_FORMATS } from '../data-plane/data-plane-formats';
import { ABSTRACT_FORMATS } from '../protocol/abstract-format';
import { resourceToolOutputSchema } from '../protocol/s2sp-payload';
import { S2SP_META } from '../protocol/s2sp-meta';
import { ResourceToolInterceptor } from './resource-tool.interceptor';
import { S2SP_RESOURCE_TOOL } from './resource-tool.metadata';
import type { S2spResourceToolOptions } from './s2sp-resource-tool.options';

export type { S2spResourceToolOptions };

export { S2SP_RESOURCE_TOOL };

const S2SP_RESOURCE_GUIDE =
  '\n\nS2SP: set abstract_domains to ONLY the columns you need to filter or reason ' +
  '(comma-separated, or a JSON array string); pick as few as possible, since every column costs tokens. ' +
  'You then get those columns plus _row_id per row; the other columns stay on the data plane. ' +
  'mode="async" (default) returns a single-use resource_url to hand to a consumer tool together with the abstract rows you selected; ' +
  'mode="sync" returns the body inline for your SDK layer. Omit abstract_domains for a plain result with every column. ' +
  'abstract_format="columns" answers in fewer tokens: {"columns":[...],"rows":[[...],...]} instead of one object per row; ' +
  'consumer tools accept that form as abstract_data too.';

/**
 * The S2SP parameters every resource tool takes. Typed out explicitly: the
 * inferred enum type would list 'async' and 'sync' in whatever order the
 * compiler first met the two literals, which makes the committed API report
 * (libs/s2sp/api/s2sp.api.md) depend on unrelated files.
 */
export const s2spResourceParameters: {
  abstract_domains: z.ZodOptional<z.ZodString>;
  mode: z.ZodOptional<z.ZodEnum<{ async: 'async'; sync: 'sync' }>>;
  abstract_format: z.ZodOptional<z.ZodEnum<{ rows: 'rows'; columns: 'columns' }>>;
} = {
  abstract_domains: z
    .string()
    .optional()
    .describe('Columns to return to you (control plane), e.g. "event,severity". Omit for a plain MCP result.'),
  mode: z
    .enum(['async', 'sync'])
    .optional()
    .describe('"async" (default): body cached behind resource_url. "sync": body returned inline.'),
  abstract_format: z
    .enum(ABSTRACT_FORMATS)
    .optional()
    .describe(
      '"rows" (default): one object per row. "columns": compact, {"columns":[...],"rows":[[...],...]}, fewer tokens.',
    ),
} satisfies Record<
  (typeof S2SP_RESOURCE_PARAMETERS)[number] | (typeof S2SP_RESOURCE_EXTENSION_PARAMETERS)[number],
  z.ZodType
>;

/**
 * Marks a provider method that returns rows (an array of objects) as an S2SP
 * resource tool: an MCP tool whose result can be split into an abstract for
 * the model and a body that travels server to server.
 * @public
 */
export function S2spResourceTool(options: S2spResourceToolOptions): MethodDecorator {
  const parameters = (options.parameters ?? z.object({})).extend(s2spResourceParameters);
  return applyDecorators(
    SetMetadata(S2SP_RESOURCE_TOOL, options),
    Tool({
      name: options.name,
      description: options.description.trim() + S2SP_RESOURCE_GUIDE,
      parameters,
      outputSchema: resourceToolOutputSchema,
      _meta: { ...scopesMeta(options.scopes)._meta, [S2SP_META.DATA_FORMATS]: [...DATA_PLANE_FORMATS] },
      annotations: { readOnlyHint: true, ...options.annotations },
    }),
    ToolScopesGuard(options.scopes),
    UseInterceptors(ResourceToolInterceptor),
  );
}
