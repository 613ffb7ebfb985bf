import { Payload } from '@nestjs/microservices';
import { McpController } from '@rekog/mcp-nest';
import { S2spResourceTool, S2spToolError } from '@s2sp/core';
import { z } from 'zod';
import { AlertCatalog, UnknownAreaError } from './alerts/alert-catalog';
import type { AlertRecord } from './alerts/alert-generator';

const getAlertsParameters = z.object({
  area: z.string().describe('Two-letter US state code, e.g. "CA".'),
});

/** Scope a caller needs to read alerts (and to fetch their bodies from the data plane). */
export const WEATHER_READ_SCOPE = 'weather:read';

@McpController()
export class AlertsController {
  constructor(private readonly catalog: AlertCatalog) {}

  @S2spResourceTool({
    name: 'get_alerts',
    description:
      'Active National Weather Service alerts for a US state, about 30 fields per alert ' +
      '(event, severity, urgency, certainty, status, areaDesc, headline, description, instruction, sent, onset, expires, senderName, …). ' +
      'For filtering, "event" alone is usually enough; "event,severity" adds the severity level.',
    parameters: getAlertsParameters,
    scopes: [WEATHER_READ_SCOPE],
  })
  getAlerts(@Payload() args: z.infer<typeof getAlertsParameters>): AlertRecord[] {
    try {
      return this.catalog.forArea(args.area);
    } catch (error) {
      if (error instanceof UnknownAreaError) throw new S2spToolError(error.message);
      throw error;
    }
  }
}
