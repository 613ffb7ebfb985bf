import { S2SP_META } from './s2sp-meta';

/**
 * The `resource_link` content block (MCP 2025-06-18) of an async S2SP answer:
 * it tells generic MCP clients that the result has data they are not shown,
 * where it is and how big it is (rows and body columns; bytes are unknown
 * until a fetch picks its columns). The JSON text block stays first, as the
 * reference SDK's consumers read it.
 */
export function resourceLinkBlock(
  toolName: string,
  resourceUrl: string,
  rows: number,
  bodyColumns: number,
): Record<string, unknown> {
  return {
    type: 'resource_link',
    uri: resourceUrl,
    name: `${toolName}-body`,
    title: `${toolName} body rows`,
    description: `${rows} row${rows === 1 ? '' : 's'} × ${bodyColumns} body column${bodyColumns === 1 ? '' : 's'} on the S2SP data plane; single use: pass resource_url to a consumer tool rather than fetching it.`,
    mimeType: 'application/json',
    _meta: { [S2SP_META.TOTAL_ROWS]: rows, [S2SP_META.BODY_COLUMNS]: bodyColumns },
  };
}
