import { Injectable } from '@nestjs/common';
import type { McpCompletionRequest, McpCompletionSource } from '@s2sp/core';
import { AlertCatalog } from '../alerts/alert-catalog';
import { ALERTS_URI_TEMPLATE } from './alert-uris';
import { TRIAGE_ALERTS_PROMPT, TRIAGE_FOCUS_COLUMNS } from './triage-alerts-prompt';

/** Suggestions for the `area` of the alerts template and the triage prompt, and for the prompt's `focus`. */
@Injectable()
export class AlertCompletions implements McpCompletionSource {
  constructor(private readonly catalog: AlertCatalog) {}

  complete({ ref, argument }: McpCompletionRequest): string[] {
    const typed = argument.value.trim();
    const forTemplate = ref.type === 'ref/resource' && ref.uri === ALERTS_URI_TEMPLATE;
    const forPrompt = ref.type === 'ref/prompt' && ref.name === TRIAGE_ALERTS_PROMPT;
    if (argument.name === 'area' && (forTemplate || forPrompt)) {
      return this.catalog.areas().filter((code) => code.startsWith(typed.toUpperCase()));
    }
    if (argument.name === 'focus' && forPrompt)
      return TRIAGE_FOCUS_COLUMNS.filter((column) => column.startsWith(typed));
    return [];
  }
}
