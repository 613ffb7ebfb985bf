import { Injectable } from '@nestjs/common';
import type { Resource } from '@modelcontextprotocol/server';
import type { McpResourceDirectory } from '@s2sp/core';
import { AlertCatalog } from '../alerts/alert-catalog';
import { US_STATES } from '../alerts/us-states';
import { alertsUri } from './alert-uris';

/** `resources/list` of the weather server: one resource per area, with its alert count. */
@Injectable()
export class AlertResourceDirectory implements McpResourceDirectory {
  constructor(private readonly catalog: AlertCatalog) {}

  list(): Resource[] {
    const names = new Map(US_STATES.map((state) => [state.code, state.name]));
    return this.catalog.areas().map((code) => {
      const count = this.catalog.forArea(code).length;
      return {
        uri: alertsUri(code),
        name: `alerts-${code}`,
        title: `Weather alerts: ${names.get(code) ?? code}`,
        description: `${count} active National Weather Service alert${count === 1 ? '' : 's'} for ${code}, every field (JSON array).`,
        mimeType: 'application/json',
      };
    });
  }
}
