import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Tool } from '@rekog/mcp-nest';
import { S2SP_CONSUMER_PARAMETERS } from '@s2sp/platform/internal';
import { z } from 'zod';
import { scopesMeta, ToolScopesGuard } from '../auth/tool-scopes';
import { ConsumerToolInterceptor } from './consumer-tool.interceptor';
import { S2SP_CONSUMER_TOOL } from './consumer-tool.metadata';
import type { S2spConsumerToolOptions } from './s2sp-consumer-tool.options';

export type { S2spConsumerToolOptions };

export { S2SP_CONSUMER_TOOL };

const S2SP_CONSUMER_GUIDE =
  '\n\nS2SP consumer: pass abstract_data (the JSON array of abstract rows you selected, with their _row_id, or the compact ' +
  'form {"columns":[...],"rows":[[...],...]} of an abstract_format="columns" answer) and ' +
  'either resource_url (async mode: this server fetches the body directly) or body_data (sync mode: the body rows). ' +
  'Optional column_mapping (JSON object) renames columns. The tool receives the merged rows.';

export const s2spConsumerParameters = {
  abstract_data: z
    .string()
    .describe(
      'JSON array of the abstract rows to process, each with its _row_id, or the compact form {"columns":[...],"rows":[[...],...]}.',
    ),
  resource_url: z.string().optional().describe('Async mode: the resource_url from the resource tool.'),
  body_data: z
    .string()
    .optional()
    .describe('Sync mode: the body rows, each with its _row_id, as a JSON array or in the compact form.'),
  column_mapping: z.string().optional().describe('JSON object renaming columns, e.g. {"areaDesc": "area"}.'),
} satisfies Record<(typeof S2SP_CONSUMER_PARAMETERS)[number], z.ZodType>;

/**
 * Marks a provider method as an S2SP consumer tool. The method's payload gets
 * `rows`: the abstract rows merged with their body by `_row_id`, renamed per
 * column_mapping, in the order the agent selected them.
 * @public
 */
export function S2spConsumerTool(options: S2spConsumerToolOptions): MethodDecorator {
  const parameters = (options.parameters ?? z.object({})).extend(s2spConsumerParameters);
  return applyDecorators(
    SetMetadata(S2SP_CONSUMER_TOOL, options),
    Tool({
      name: options.name,
      description: options.description.trim() + S2SP_CONSUMER_GUIDE,
      parameters,
      ...scopesMeta(options.scopes),
      annotations: options.annotations,
    }),
    ToolScopesGuard(options.scopes),
    UseInterceptors(ConsumerToolInterceptor),
  );
}
