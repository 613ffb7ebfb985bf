import { Injectable } from '@nestjs/common';
import type { McpCompletionRequest, McpCompletionSource } from '@s2sp/core';
import { CHART_BREAKDOWN_PROMPT, COMMON_GROUP_BY_COLUMNS } from './chart-prompt';

/** Suggestions for the chart prompt's `group_by`. */
@Injectable()
export class ChartCompletions implements McpCompletionSource {
  complete({ ref, argument }: McpCompletionRequest): string[] {
    if (ref.type !== 'ref/prompt' || ref.name !== CHART_BREAKDOWN_PROMPT || argument.name !== 'group_by') return [];
    const typed = argument.value.trim().toLowerCase();
    return COMMON_GROUP_BY_COLUMNS.filter((column) => column.toLowerCase().startsWith(typed));
  }
}
