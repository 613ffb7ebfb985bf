import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { McpSessionBroadcaster } from '@s2sp/core';
import { AlertCatalog } from '../alerts/alert-catalog';
import { alertsUri } from './alert-uris';

/** Milliseconds between advances of the alert data set; 0 advances only on demand (AlertCatalog.advance). */
export const ALERT_UPDATE_INTERVAL_MS = Symbol('ALERT_UPDATE_INTERVAL_MS');

/**
 * Tells MCP clients when alerts change: `notifications/resources/updated` for
 * each changed area to the sessions subscribed to it, and
 * `notifications/resources/list_changed` (the list's descriptions carry the
 * counts). Advances the data set on a schedule when one is configured.
 */
@Injectable()
export class AlertFeed implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AlertFeed');
  private timer?: NodeJS.Timeout;
  private stopListening?: () => void;

  constructor(
    private readonly catalog: AlertCatalog,
    private readonly broadcaster: McpSessionBroadcaster,
    @Inject(ALERT_UPDATE_INTERVAL_MS) private readonly intervalMs: number,
  ) {}

  onModuleInit(): void {
    this.stopListening = this.catalog.onChange((areas) => {
      for (const area of areas) this.broadcaster.resourceUpdated(alertsUri(area));
      if (areas.length > 0) this.broadcaster.listChanged('resources');
    });
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => {
        const changed = this.catalog.advance();
        this.logger.log(`Alerts advanced: ${changed.length} areas changed`);
      }, this.intervalMs);
      this.timer.unref();
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopListening?.();
  }
}
