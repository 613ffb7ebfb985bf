/** The URI template of an area's alerts as an MCP resource. */
export const ALERTS_URI_TEMPLATE = 'weather://alerts/{area}';

export function alertsUri(area: string): string {
  return `weather://alerts/${area}`;
}
