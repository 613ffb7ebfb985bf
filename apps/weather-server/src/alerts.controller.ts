import { Ctx, Payload } from '@nestjs/microservices';
import { McpController, type McpContext } from '@rekog/mcp-nest';
import { S2spResourceTool, S2spToolError } from '@s2sp/core';
import { z } from 'zod';
import { AlertCatalog, UnknownAreaError } from './alerts/alert-catalog';
import type { AlertRecord } from './alerts/alert-generator';

const getAlertsParameters = z.object({
  area: z.string().describe('Two-letter US state code, e.g. "CA".'),
});

/** Scope a caller needs to read alerts (and to fetch their bodies from the data plane). */
export const WEATHER_READ_SCOPE = 'weather:read';

/** The steps get_alerts gathers an area's alerts in: a caller that asked for progress hears of each. */
export const ALERT_GATHERING_STEPS = 10;

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
  async getAlerts(
    @Payload() args: z.infer<typeof getAlertsParameters>,
    @Ctx() context: McpContext,
  ): Promise<AlertRecord[]> {
    let alerts: AlertRecord[];
    try {
      alerts = this.catalog.forArea(args.area);
    } catch (error) {
      if (error instanceof UnknownAreaError) throw new S2spToolError(error.message);
      throw error;
    }
    // Gathered step by step, as from a paged feed; a call that carries a progressToken hears of each step.
    const rows: AlertRecord[] = [];
    const step = Math.max(1, Math.ceil(alerts.length / ALERT_GATHERING_STEPS));
    for (let start = 0; start < alerts.length; start += step) {
      rows.push(...alerts.slice(start, start + step));
      await context.reportProgress({
        progress: rows.length,
        total: alerts.length,
        message: `Gathered ${rows.length} of ${alerts.length} alerts`,
      });
    }
    return rows;
  }
}
