import { UseFilters, UseGuards } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ResourceNotFoundError, type GetPromptResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import { McpController, Prompt, ResourceTemplate } from '@rekog/mcp-nest';
import { RequireScopes } from '@s2sp/auth';
import { McpProtocolErrorFilter, promptArguments, S2spToolAuthGuard } from '@s2sp/core';
import { z } from 'zod';
import { AlertCatalog, UnknownAreaError } from '../alerts/alert-catalog';
import { WEATHER_READ_SCOPE } from '../alerts.controller';
import { ALERTS_URI_TEMPLATE } from './alert-uris';
import { TRIAGE_ALERTS_PROMPT, triageAlertsPrompt } from './triage-alerts-prompt';

const triageArguments = z.object({
  area: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'a two-letter US state code')
    .describe('Two-letter US state code, e.g. "CA".'),
  focus: z.string().max(40).optional().describe('A second column to rank by besides event (default severity).'),
});

/** The weather server's data as MCP resources (one per area) and its triage prompt. */
@McpController()
// Invalid arguments and unknown resources reach the client as the protocol errors they are.
@UseFilters(McpProtocolErrorFilter)
export class AlertResourcesController {
  constructor(private readonly catalog: AlertCatalog) {}

  @ResourceTemplate({
    uriTemplate: ALERTS_URI_TEMPLATE,
    name: 'alerts',
    description:
      'Every field of the active National Weather Service alerts of one area (two-letter US state code), as a JSON array.',
    mimeType: 'application/json',
  })
  @RequireScopes(WEATHER_READ_SCOPE)
  @UseGuards(S2spToolAuthGuard)
  readAlerts(@Payload() params: { area?: unknown; uri: string }): ReadResourceResult {
    try {
      const alerts = this.catalog.forArea(String(params.area ?? ''));
      return { contents: [{ uri: params.uri, mimeType: 'application/json', text: JSON.stringify(alerts) }] };
    } catch (error) {
      if (error instanceof UnknownAreaError) throw new ResourceNotFoundError(params.uri, error.message);
      throw error;
    }
  }

  @Prompt({
    name: TRIAGE_ALERTS_PROMPT,
    description: 'Triage the active weather alerts of an area: fetch them through S2SP and rank them.',
    parameters: triageArguments,
  })
  triageAlerts(@Payload() args: unknown): GetPromptResult {
    const parsed = promptArguments(triageArguments, args, TRIAGE_ALERTS_PROMPT);
    return triageAlertsPrompt(parsed.area.toUpperCase(), parsed.focus);
  }
}
